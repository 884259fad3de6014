/**
 * The Lessons tab: the shipped lessons (public/lessons/index.json), a lesson file loaded from
 * disk, "Save this stop" (the experiment and position on screen as a lesson stop, downloaded),
 * and Ask: a predict-then-reveal question on any experiment.
 */
import { useEffect, useState } from 'react';
import { useSim, useStore } from '../store/useSim';
import { decodeFragment } from '../share/codec';
import type { SharedState } from '../share/state';
import {
  QUESTION_KINDS,
  lessonOfStop,
  parseLesson,
  wafAheadProblem,
  wafPrompt,
  MAX_LOOKAHEAD,
  type Lesson,
  type Question,
} from './lesson';
import { downloadJson, fetchLesson, openStop } from './lessonStore';
import { Quiz } from './Quiz';
import { WhatIsAnFtl } from './WhatIsAnFtl';
import './Lessons.css';

interface Listed {
  id: string;
  title: string;
  scheme: string;
  stops: number;
  summary: string;
}

export function LessonsPanel() {
  const store = useStore();
  const pos = useSim((s) => s.pos);
  const total = useSim((s) => s.info?.total ?? 0);
  // The WAF question's N, as typed, and why it cannot be asked (if so).
  const [ahead, setAhead] = useState('100');
  const [askProblem, setAskProblem] = useState<string>();
  const [list, setList] = useState<Listed[]>([]);
  const [problem, setProblem] = useState<string>();
  const [asked, setAsked] = useState<{ q: Question; at: [number, number] }>();

  useEffect(() => {
    fetch('lessons/index.json')
      .then((r) => r.json())
      .then((j: { lessons: Listed[] }) => setList(j.lessons))
      .catch(() => setProblem('The lesson list could not be read.'));
  }, []);

  const open = async (id: string) => {
    try {
      openStop(await fetchLesson(id), 0, true, store.getState().stage);
    } catch (e) {
      setProblem((e as Error).message);
    }
  };
  const load = async (file: File) => {
    try {
      const lesson: Lesson = parseLesson(JSON.parse(await file.text()), file.name);
      openStop(lesson, 0, false, store.getState().stage);
      setProblem(undefined);
    } catch (e) {
      setProblem(e instanceof SyntaxError ? `${file.name} is not JSON: ${e.message}` : (e as Error).message);
    }
  };
  const saveStop = () => {
    try {
      const s = store.getState();
      const lesson = lessonOfStop(decodeFragment(window.location.hash).state as SharedState, s.pos, s.tab);
      downloadJson(`stop-${s.pos.request}-${s.pos.op}.json`, lesson);
      setProblem(undefined);
    } catch (e) {
      setProblem(`Cannot save this stop: ${(e as Error).message}`);
    }
  };

  return (
    <section className="lessons" aria-label="Lessons">
      <WhatIsAnFtl />
      <h3>Lessons</h3>
      <ol className="lessons__list">
        {list.map((l) => (
          <li key={l.id}>
            <button type="button" onClick={() => void open(l.id)} data-lesson={l.id}>
              {l.title}
            </button>{' '}
            <span className="lessons__meta">
              {l.scheme} · {l.stops} stops
            </span>
            <div className="lessons__summary">{l.summary}</div>
          </li>
        ))}
      </ol>
      <p>
        <label>
          Load a lesson file:{' '}
          <input
            type="file"
            accept=".json,application/json"
            onChange={(e) => e.target.files?.[0] && void load(e.target.files[0])}
          />
        </label>
      </p>
      <p>
        <button type="button" onClick={saveStop}>
          Save this stop
        </button>{' '}
        (downloads the experiment and position on screen as a lesson file of one stop)
      </p>
      {problem && <p role="alert">{problem}</p>}
      <h3>Ask</h3>
      <p>Predict what the engine does next, then step to see it.</p>
      <div className="lessons__ask">
        {QUESTION_KINDS.filter((k) => k.kind !== 'waf_after').map((k) => (
          <button
            key={k.kind}
            type="button"
            onClick={() => {
              setAskProblem(undefined);
              setAsked({ q: { kind: k.kind, prompt: k.label }, at: [pos.request, pos.op] });
            }}
          >
            {k.label}
          </button>
        ))}
        <form
          className="lessons__waf"
          onSubmit={(e) => {
            e.preventDefault();
            const n = Number(ahead.trim());
            // Asked from the request on screen: the rest of the trace is what is left to serve.
            const problem = wafAheadProblem(n, total - pos.request);
            setAskProblem(problem);
            if (!problem) setAsked({ q: { kind: 'waf_after', n, prompt: wafPrompt(n) }, at: [pos.request, pos.op] });
          }}
        >
          <button type="submit">What will the WAF be after N more requests?</button>{' '}
          <label>
            N ={' '}
            <input
              aria-label="N, requests ahead"
              type="number"
              min={1}
              max={MAX_LOOKAHEAD}
              step={1}
              value={ahead}
              onChange={(e) => setAhead(e.target.value)}
            />
          </label>
        </form>
      </div>
      {askProblem && (
        <p role="alert" data-testid="ask-problem">
          {askProblem}
        </p>
      )}
      {asked && <Quiz question={asked.q} askedAt={asked.at} />}
    </section>
  );
}
