/** The ten recovery codes, shown once after two-factor sign-in is turned on: copy or download them. */
import { Check, Copy, Download } from 'lucide-react';
import { useCopyToClipboard } from '../../lib/use-copy-to-clipboard';
import { Button } from '../ui/button';

export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { copied, copy } = useCopyToClipboard();
  const text = `${codes.join('\n')}\n`;

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <div className="grid gap-3">
      <p className="text-sm">
        Keep these codes somewhere safe. Each one signs you in once if you lose your phone. They are shown
        only now.
      </p>
      <ul
        aria-label="Recovery codes"
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md border bg-muted p-3 font-mono text-sm"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={() => copy(text)}>
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied!' : 'Copy'}
        </Button>
        <Button type="button" variant="outline" onClick={download}>
          <Download aria-hidden="true" />
          Download
        </Button>
      </div>
    </div>
  );
}
