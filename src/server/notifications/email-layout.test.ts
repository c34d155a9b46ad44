import { describe, expect, it } from 'vitest';
import { type EmailBrand, plainEmailBrand, renderEmail, renderQueuedEmail } from './email-layout';

const content = {
  heading: 'A call needs your attention',
  lines: ['Why: The call failed.'],
  action: { label: 'Open the call', url: 'https://calls.example/dashboard?call=1&x=2' },
  footer: 'You get this e-mail because e-mail notifications are on.',
};

describe('renderEmail with a brand', () => {
  it('escapes every brand value and lets only #rrggbb into a style', () => {
    const hostile: EmailBrand = {
      name: 'Acme <script>alert(1)</script> & "Co"',
      logoUrl: 'https://calls.example/brand-assets/light-1.png" onerror="alert(1)',
      button: 'red;background-image:url(https://evil.example)',
      buttonText: '#ffffff',
      link: 'expression(alert(1))',
      footerText: '<b>bold</b>',
      supportEmail: 'help@acme.example',
      supportPhone: '+1 (555) 010-0000',
      supportUrl: 'https://help.acme.example/?a=1&b=2',
    };
    const { html, text } = renderEmail(content, hostile);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('" onerror="');
    expect(html).toContain('alt="Acme &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;"');
    expect(html).not.toContain('evil.example');
    expect(html).not.toContain('expression(');
    // Falls back to the product's blue where a colour was not one.
    expect(html).toContain('background:#1d4ed8;color:#ffffff');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain('href="tel:+15550100000"');
    expect(html).toContain('href="https://help.acme.example/?a=1&amp;b=2"');
    // The text part is text: the values as they are.
    expect(text.split('\n')[0]).toBe('Acme <script>alert(1)</script> & "Co"');
    expect(text).toContain('<b>bold</b>');
  });

  it('names the brand in the subject only when asked', () => {
    const brand = plainEmailBrand('Northwind Voice');
    expect(renderQueuedEmail({ to: 'a@b.example', subject: '3 calls', content }, brand).subject).toBe(
      '3 calls',
    );
    expect(
      renderQueuedEmail({ to: 'a@b.example', subject: '3 calls', subjectNamesBrand: true, content }, brand)
        .subject,
    ).toBe('Northwind Voice: 3 calls');
  });
});
