/**
 * Predict, then reveal: the user answers, the engine's answer (computed by stepping a copy of
 * the simulation) is held back until the timeline reaches the position that shows it, by the
 * user's own steps or by Reveal.
 */
import { useEffect, useState } from 'react';
import { useSim, useStore } from '../store/useSim';
import { isRight, type Answer, type Question } from './lesson';
import { askEngine } from './lessonStore';

const CHOICES: Partial<Record<Question['kind'], string[]>> = {
  cmt_hit: ['hit', 'miss'],
  merge_kind: ['switch', 'partial', 'full'],
};

const reached = (pos: { request: number; op: number }, at: [number, number]) =>
  pos.request > at[0] || (pos.request === at[0] && pos.op >= at[1]);

/** Dispatched on window to reveal the open question's answer. */
export const REVEAL_EVENT = 'ftl-lesson-reveal';

export function Quiz({ question, askedAt }: { question: Question; askedAt: [number, number] }) {
  const store = useStore();
  const pos = useSim((s) => s.pos);
  const [guess, setGuess] = useState('');
  const [locked, setLocked] = useState<string | undefined>();
  const [answer, setAnswer] = useState<Answer | undefined>();
  const [problem, setProblem] = useState<string | undefined>();

  useEffect(() => {
    setGuess('');
    setLocked(undefined);
    setAnswer(undefined);
    setProblem(undefined);
  }, [question, askedAt[0], askedAt[1]]);

  const lock = async (g: string) => {
    setLocked(g);
    try {
      setAnswer(await askEngine(store, askedAt, question));
    } catch (e) {
      setProblem((e as Error).message);
    }
  };
  const reveal = () => answer && void store.seek(answer.reveal[0], answer.reveal[1]);
  // The presenter view's R key (the app's own R is Reset, so it is not taken here).
  useEffect(() => {
    const onReveal = () => answer && reveal();
    window.addEventListener(REVEAL_EVENT, onReveal);
    return () => window.removeEventListener(REVEAL_EVENT, onReveal);
  });

  const shown = answer && reached(pos, answer.reveal);
  const choices = CHOICES[question.kind];
  return (
    <div className="quiz" data-testid="quiz">
      <p className="quiz__prompt">{question.prompt}</p>
      {locked === undefined ? (
        choices ? (
          <div className="quiz__choices">
            {choices.map((c) => (
              <button key={c} type="button" onClick={() => void lock(c)}>
                {c}
              </button>
            ))}
          </div>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (guess.trim()) void lock(guess);
            }}
          >
            <input
              aria-label="Your answer"
              value={guess}
              inputMode="decimal"
              onChange={(e) => setGuess(e.target.value)}
            />
            <button type="submit">Lock in</button>
          </form>
        )
      ) : (
        <p className="quiz__locked">
          Your answer: <b>{locked}</b>.{' '}
          {answer && !shown && (
            <>
              Step forward to see it happen, or{' '}
              <button type="button" onClick={reveal}>
                Reveal
              </button>
            </>
          )}
        </p>
      )}
      {problem && <p role="alert">{problem}</p>}
      {answer && shown && locked !== undefined && (
        <p
          className={`quiz__verdict quiz__verdict--${isRight(question.kind, locked, answer) ? 'right' : 'wrong'}`}
          role="status"
          data-testid="verdict"
        >
          {!answer.found
            ? ''
            : isRight(question.kind, locked, answer)
              ? 'Right! '
              : `Not this time: the engine says ${answer.answer}. `}
          {answer.explain}
        </p>
      )}
    </div>
  );
}
