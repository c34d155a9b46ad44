/**
 * A call's actions in the log (play, download, transcript, delete, open details): buttons in a
 * table row, one menu on a phone's card. What the source allows is offered; an action needing a
 * recording is greyed out without one.
 */
import {
  Download,
  FileText,
  Loader2,
  MoreVertical,
  PanelRightOpen,
  Play,
  Square,
  Trash2,
} from 'lucide-react';
import type { Call } from '../../../contract/calls';
import { formatCallCreated } from '../../../contract/format';
import { ActionMenu, type ActionMenuItem } from '../../components/action-menu';
import { Button } from '../../components/ui/button';
import type { CallSource } from './call-source';

export interface CallActionsProps {
  call: Call;
  source: CallSource;
  recordingExpired: boolean;
  hasTranscript: boolean;
  expanded: boolean;
  playback: 'idle' | 'loading' | 'playing';
  downloading: boolean;
  onPlay: () => void;
  onDownload: () => void;
  onToggleTranscript: () => void;
  onDelete: () => void;
  onOpen?: () => void;
}

/** Play, download, transcript and delete: what the source allows, greyed out without a recording. */
export function CallActions(props: CallActionsProps) {
  const { call, source, hasTranscript, expanded } = props;
  const playable = !!call.recordingUrl && !props.recordingExpired;
  const missing = props.recordingExpired ? 'Recording expired' : 'No recording';
  return (
    <div className="flex items-center justify-end gap-0.5">
      {props.onOpen && (
        <Button
          variant="ghost"
          size="icon"
          aria-label="Open call details"
          title="Open call details"
          onClick={props.onOpen}
          data-open-call
        >
          <PanelRightOpen />
        </Button>
      )}
      {source.recordingUrl && (
        <PlayButton
          status={props.playback}
          disabled={!playable}
          disabledTitle={missing}
          onClick={props.onPlay}
        />
      )}
      {source.downloadUrl && (
        <Button
          variant="ghost"
          size="icon"
          aria-label="Download recording"
          title={playable ? 'Download recording' : missing}
          disabled={!playable || props.downloading}
          onClick={props.onDownload}
        >
          <Download />
        </Button>
      )}
      {hasTranscript && (
        <Button
          variant={expanded ? 'secondary' : 'ghost'}
          size="icon"
          aria-label={expanded ? 'Hide transcript' : 'Show transcript'}
          aria-expanded={expanded}
          title={expanded ? 'Hide transcript' : 'Show transcript'}
          onClick={props.onToggleTranscript}
        >
          <FileText />
        </Button>
      )}
      {source.deleteUrl && (
        <Button
          variant="ghost"
          size="icon"
          aria-label="Delete call"
          title="Delete call"
          className="text-destructive hover:text-destructive"
          onClick={props.onDelete}
          data-delete-call
        >
          <Trash2 />
        </Button>
      )}
    </div>
  );
}

/**
 * A phone card's actions: the same as the table row's, in one menu, Delete apart at its end and
 * confirmed as on a wide screen. A recording that plays keeps its Stop button on the card.
 */
export function CallActionMenu(props: CallActionsProps) {
  const { call, source, hasTranscript, expanded } = props;
  const playable = !!call.recordingUrl && !props.recordingExpired;
  const missing = props.recordingExpired ? 'recording expired' : 'no recording';
  const items: ActionMenuItem[] = [
    ...(props.onOpen
      ? [{ label: 'Open call details', icon: <PanelRightOpen />, onSelect: props.onOpen }]
      : []),
    ...(source.recordingUrl && props.playback === 'idle'
      ? [
          {
            label: playable ? 'Play recording' : `Play recording (${missing})`,
            icon: <Play />,
            disabled: !playable,
            onSelect: props.onPlay,
          },
        ]
      : []),
    ...(source.downloadUrl
      ? [
          {
            label: playable ? 'Download recording' : `Download recording (${missing})`,
            icon: <Download />,
            disabled: !playable || props.downloading,
            onSelect: props.onDownload,
          },
        ]
      : []),
    ...(hasTranscript
      ? [
          {
            label: expanded ? 'Hide transcript' : 'Show transcript',
            icon: <FileText />,
            onSelect: props.onToggleTranscript,
          },
        ]
      : []),
    ...(source.deleteUrl
      ? [{ label: 'Delete call…', icon: <Trash2 />, destructive: true, onSelect: props.onDelete }]
      : []),
  ];
  return (
    <>
      {source.recordingUrl && props.playback !== 'idle' && (
        <PlayButton status={props.playback} disabled={false} disabledTitle="" onClick={props.onPlay} />
      )}
      <ActionMenu
        label={`Actions for the call of ${formatCallCreated(call.createdAt)}`}
        trigger={<MoreVertical aria-hidden="true" />}
        items={items}
        triggerProps={{ 'data-call-menu': '' }}
      />
    </>
  );
}

function PlayButton({
  status,
  disabled,
  disabledTitle,
  onClick,
}: {
  status: 'idle' | 'loading' | 'playing';
  disabled: boolean;
  disabledTitle: string;
  onClick: () => void;
}) {
  const label =
    status === 'playing' ? 'Stop recording' : status === 'loading' ? 'Loading recording' : 'Play recording';
  return (
    <Button
      variant={status === 'idle' ? 'ghost' : 'secondary'}
      size="icon"
      aria-label={label}
      title={disabled ? disabledTitle : label}
      data-playback={status}
      disabled={disabled}
      onClick={onClick}
    >
      {status === 'playing' ? (
        <Square />
      ) : status === 'loading' ? (
        <Loader2 className="animate-spin" />
      ) : (
        <Play />
      )}
    </Button>
  );
}
