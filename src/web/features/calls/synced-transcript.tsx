/**
 * The recording of a call with its transcript in step: the line being spoken is
 * highlighted and kept in view, a click on a line seeks there, speeds 1×/1.5×/2×. The player
 * exposes its position so "Copy link at this moment" can link to it. Lines where quality slipped
 * (a slow answer, an interruption, dead air) carry a mark in words.
 */
import { AudioLines, Hourglass, MessageSquareWarning, Pause, Play } from 'lucide-react';
import { forwardRef, type ReactNode, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import type { QualityMoment, QualityMomentKind } from '../../../contract/quality';
import { Button } from '../../components/ui/button';
import { ToggleGroup, ToggleGroupItem } from '../../components/ui/toggle-group';
import { cn } from '../../lib/utils';
import { type TranscriptMark, transcriptMarks } from './quality/transcript-marks';
import { RedactedText } from './redacted-text';
import type { SpokenLine } from './transcript';
import { activeLineAt, formatClock, timeTranscript } from './transcript-timing';

const SPEEDS = ['1', '1.5', '2'] as const;
/** Arrow keys move by this many seconds. */
export const SEEK_STEP_SECONDS = 5;

export interface SyncedPlayerHandle {
  position(): number;
  toggle(): void;
  seekBy(seconds: number): void;
}

export interface SyncedTranscriptProps {
  /** Audio URL; without one only the transcript is shown. */
  src: string | null;
  lines: SpokenLine[] | null;
  durationSeconds: number;
  /** The call's quality moments, marked on their lines. */
  moments?: readonly QualityMoment[];
  /** Where to start (a link to a moment). */
  startAt: number | null;
  /** What to say when there is no transcript (why, when it is known). */
  emptyText?: string;
  /** Shown between the recording and the transcript (the drawer's summary). */
  between?: ReactNode;
}

export const SyncedTranscript = forwardRef<SyncedPlayerHandle, SyncedTranscriptProps>(
  function SyncedTranscript({ src, lines, durationSeconds, moments, startAt, emptyText, between }, ref) {
    const audioRef = useRef<HTMLAudioElement>(null);
    const [position, setPosition] = useState(startAt ?? 0);
    const [duration, setDuration] = useState(durationSeconds);
    const [playing, setPlaying] = useState(false);
    const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>('1');
    const [failed, setFailed] = useState(false);
    const timed = useMemo(
      () => (lines ? timeTranscript(lines, durationSeconds) : null),
      [lines, durationSeconds],
    );
    const active = timed ? activeLineAt(timed.lines, position) : -1;
    const marks = useMemo(
      () => transcriptMarks(timed?.lines.map((l) => l.startMs ?? null) ?? [], moments ?? []),
      [timed, moments],
    );
    const listRef = useRef<HTMLOListElement>(null);

    const seek = (seconds: number) => {
      const audio = audioRef.current;
      const to = Math.max(0, Math.min(seconds, duration || seconds));
      setPosition(to);
      if (audio) audio.currentTime = to;
    };
    const toggle = () => {
      const audio = audioRef.current;
      if (!audio || failed) return;
      if (audio.paused) audio.play().catch(() => setFailed(true));
      else audio.pause();
    };
    useImperativeHandle(ref, () => ({
      position: () => audioRef.current?.currentTime ?? position,
      toggle,
      seekBy: (seconds) => seek((audioRef.current?.currentTime ?? position) + seconds),
    }));

    useEffect(() => {
      if (audioRef.current) audioRef.current.playbackRate = Number(speed);
    }, [speed]);

    // Keep the spoken line in view inside the transcript's own scroll box, not the page.
    useEffect(() => {
      const list = listRef.current;
      // children are Elements; the list renders one HTML element per line
      const item = list?.children[active] as HTMLElement | undefined;
      if (!list || !item) return;
      const box = list.parentElement;
      if (!box) return;
      if (
        item.offsetTop < box.scrollTop ||
        item.offsetTop + item.offsetHeight > box.scrollTop + box.clientHeight
      )
        box.scrollTo({ top: item.offsetTop - box.clientHeight / 3 });
    }, [active]);

    return (
      <div className="flex flex-col gap-3" data-testid="call-player">
        {src && (
          <div className="flex flex-col gap-2 rounded-md border p-3">
            {/* biome-ignore lint/a11y/useMediaCaption: the transcript beside it, in step, is the caption */}
            <audio
              ref={audioRef}
              src={src}
              preload="metadata"
              data-testid="detail-audio"
              onLoadedMetadata={(e) => {
                const audio = e.currentTarget;
                if (Number.isFinite(audio.duration)) setDuration(audio.duration);
                audio.playbackRate = Number(speed);
                if (startAt !== null) audio.currentTime = startAt;
              }}
              onTimeUpdate={(e) => setPosition(e.currentTarget.currentTime)}
              onSeeked={(e) => setPosition(e.currentTarget.currentTime)}
              onPlay={() => setPlaying(true)}
              onPause={() => setPlaying(false)}
              onEnded={() => setPlaying(false)}
              onError={() => setFailed(true)}
            />
            <div className="flex items-center gap-3">
              <Button
                size="icon"
                variant="secondary"
                aria-label={playing ? 'Pause' : 'Play'}
                title={playing ? 'Pause (space)' : 'Play (space)'}
                disabled={failed}
                onClick={toggle}
                data-testid="detail-play"
              >
                {playing ? <Pause /> : <Play />}
              </Button>
              <input
                type="range"
                className="h-2 min-w-0 flex-1 accent-primary-text"
                min={0}
                max={Math.max(1, Math.round(duration))}
                step={1}
                value={Math.round(position)}
                aria-label="Position in the recording"
                aria-valuetext={`${formatClock(position)} of ${formatClock(duration)}`}
                disabled={failed}
                onChange={(e) => seek(Number(e.target.value))}
              />
              <span
                className="shrink-0 text-muted-foreground text-xs tabular-nums"
                data-testid="detail-clock"
              >
                {formatClock(position)} / {formatClock(duration)}
              </span>
            </div>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-muted-foreground text-xs" id="speed-label">
                Speed
              </span>
              <ToggleGroup
                type="single"
                variant="outline"
                size="sm"
                aria-labelledby="speed-label"
                value={speed}
                // The toggle's items are the SPEEDS values
                onValueChange={(v) => v && setSpeed(v as (typeof SPEEDS)[number])}
              >
                {SPEEDS.map((s) => (
                  <ToggleGroupItem key={s} value={s} className="px-3 text-xs">
                    {s}×
                  </ToggleGroupItem>
                ))}
              </ToggleGroup>
            </div>
            {failed && <p className="text-destructive text-sm">Unable to load recording</p>}
          </div>
        )}
        {between}
        {timed ? (
          <section
            className="max-h-80 overflow-y-auto rounded-md border bg-muted/40 p-2"
            aria-label="Transcript"
            data-testid="synced-transcript"
            // Without a recording its lines are not buttons one can tab to: the box itself takes
            // the focus, so keyboard users can scroll it.
            tabIndex={src && !failed ? undefined : 0}
          >
            {timed.estimated && src && (
              <p className="px-2 pb-1 text-muted-foreground text-xs">
                Line times are estimated: the provider sent none.
              </p>
            )}
            <ol ref={listRef} className="relative flex flex-col gap-1">
              {timed.lines.map((line, i) => (
                <li key={i}>
                  <button
                    type="button"
                    className={cn(
                      'flex w-full flex-col gap-0.5 rounded-md px-2 py-1.5 text-left text-sm outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring',
                      // The brand's text shade as a ring on the card surface: the contrast guard checks it there.
                      i === active && 'bg-card ring-2 ring-primary-text hover:bg-card',
                    )}
                    aria-current={i === active ? 'true' : undefined}
                    title={src ? `Play from ${formatClock(line.start)}` : undefined}
                    disabled={!src || failed}
                    onClick={() => {
                      seek(line.start);
                      const audio = audioRef.current;
                      if (audio?.paused) audio.play().catch(() => setFailed(true));
                    }}
                    data-testid="transcript-line"
                  >
                    <span className="flex items-baseline gap-2">
                      <span
                        className={cn(
                          'font-semibold',
                          line.speaker === 'AI Agent' ? 'text-primary-text' : 'text-foreground',
                        )}
                      >
                        {line.speaker}
                      </span>
                      {/* Known times show without a recording too: the marks' moments read against them. */}
                      {(src || !timed.estimated) && (
                        <span className="text-muted-foreground text-xs tabular-nums">
                          {formatClock(line.start)}
                        </span>
                      )}
                    </span>
                    <span className="whitespace-pre-wrap break-words text-foreground/90">
                      <RedactedText text={line.text} />
                    </span>
                    {marks.has(i) && <LineMarks marks={marks.get(i) ?? []} />}
                  </button>
                </li>
              ))}
            </ol>
          </section>
        ) : (
          <p className="text-muted-foreground text-sm" data-testid="no-transcript">
            {emptyText ?? 'No transcript for this call.'}
          </p>
        )}
      </div>
    );
  },
);

const MARK_STYLE: Record<QualityMomentKind, { icon: typeof Hourglass; className: string }> = {
  slow_turn: { icon: Hourglass, className: 'border-amber-300 bg-amber-50 text-amber-900' },
  dead_air: { icon: AudioLines, className: 'border-slate-300 bg-slate-50 text-slate-800' },
  caller_interrupted: { icon: MessageSquareWarning, className: 'border-rose-300 bg-rose-50 text-rose-900' },
  agent_interrupted: { icon: MessageSquareWarning, className: 'border-rose-300 bg-rose-50 text-rose-900' },
};

/** A line's quality marks: an icon and words each, the full sentence for screen readers. */
function LineMarks({ marks }: { marks: TranscriptMark[] }) {
  return (
    <span className="flex flex-wrap gap-1 pt-0.5">
      {marks.map((mark, i) => {
        const { icon: Icon, className } = MARK_STYLE[mark.kind];
        return (
          <span
            key={`${mark.kind}-${i}`}
            className={cn(
              'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 font-medium text-xs',
              className,
            )}
            title={mark.description}
            data-testid="transcript-mark"
            data-kind={mark.kind}
          >
            <Icon className="size-3" aria-hidden="true" />
            <span aria-hidden="true">{mark.label}</span>
            <span className="sr-only">{mark.description}</span>
          </span>
        );
      })}
    </span>
  );
}
