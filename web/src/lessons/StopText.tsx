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
