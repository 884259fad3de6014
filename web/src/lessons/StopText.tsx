/** A stop's text with the engine's facts filled in, and its question. */
import { fillText, type LessonStop } from './lesson';
import { Quiz } from './Quiz';
import { Terms } from '../ui/Terms';

export function StopText({
  s,
  atStop,
  facts,
}: {
  s: LessonStop;
  atStop: boolean;
  facts: Record<string, unknown> | null;
}) {
  return (
    <>
      <p className="lesson__text" data-testid="lesson-text">
        {atStop ? <Terms text={fillText(s.text, facts)} /> : `Moving to request ${s.at[0].toLocaleString('en-US')}…`}
      </p>
      {s.question && <Quiz question={s.question} askedAt={s.at} />}
    </>
  );
}

/** A lesson's title and which stop of how many is open (the lesson bar's and the presenter's head). */
export function StopHead({ title, stop, stops }: { title: string; stop: number; stops: number }) {
  return (
    <header className="lesson__head">
      <h2>{title}</h2>
      <span className="lesson__count">
        Stop {stop + 1} of {stops}
      </span>
    </header>
  );
}
