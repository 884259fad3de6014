import { describeRequest, formatNs } from '../../narration/narrate';
import { useSim } from '../../store/useSim';
import { Terms } from '../../ui/Terms';
import { breakdown } from './breakdown';
import { opSummary } from './opSummary';
import './Inspector.css';

const us = (v: number) => formatNs(v * 1000);

/**
 * The request on screen: its response time split into queueing, host transfer, metadata
 * loading, mapping, data, GC, RAM and waiting for a busy chip, as a stacked bar and a table.
 */
export function Inspector() {
  const report = useSim((s) => s.report);
  const current = useSim((s) => s.current);
  const pos = useSim((s) => s.pos);
  const boundUs = useSim((s) => s.info?.responseBoundUs);
  if (!report || !current) {
    return (
      <section className="inspector" aria-label="Request inspector">
        <h2>Request</h2>
        <p className="muted">No request served yet.</p>
      </section>
    );
  }
  const { parts, total, overlap } = breakdown(report, boundUs != null);
  const gcStep = boundUs != null ? parts.find((p) => p.key === 'gc') : undefined;
  return (
    <section className="inspector" aria-label="Request inspector" data-testid="inspector">
      <h2>
        Request #{report.index.toLocaleString('en-US')}{' '}
        <span className="muted">
          · <Terms text={describeRequest(current.request)} />
        </span>
      </h2>
      <p className="inspector__total">
        Response <strong>{us(total)}</strong>
        {pos.op > 0 && (
          <span className="muted">
            {' '}
            · in progress (op {pos.op} of {pos.ops}); times are for the whole request
          </span>
        )}
      </p>
      <div className="stack" role="img" aria-label={parts.map((p) => `${p.label} ${us(p.us)}`).join(', ')}>
        {parts.map((p) => (
          <span key={p.key} style={{ flexGrow: p.us, background: p.color }} title={`${p.label}: ${us(p.us)}`} />
        ))}
      </div>
      <table className="parts">
        <tbody>
          {parts.map((p) => (
            <tr key={p.key} data-part={p.key}>
              <td>
                <span className="swatch" style={{ background: p.color }} />
                {p.label}
              </td>
              <td>{us(p.us)}</td>
              <td>{total > 0 ? `${Math.round((100 * p.us) / total)} %` : '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.response_us > 0 && report.queue_us / report.response_us >= 0.5 && (
        <p className="small inspector__queue" data-testid="request-queueing">
          Mostly queueing: this request waited {us(report.queue_us)} for earlier ones before the device began it — the
          trace's load, not FTL work.
        </p>
      )}
      {gcStep && boundUs != null && (
        <p className="small" data-testid="request-gc-step">
          This request ran a partial GC step: {us(gcStep.us)} of its {us(total)}. The scheme's bound L(p) ={' '}
          {us(boundUs)} covers serving one page, queueing excluded.
        </p>
      )}
      {overlap > 0 && (
        <p className="muted small">Flash units worked in parallel: the parts overlap by {us(overlap)}.</p>
      )}
      <p className="muted small" data-testid="op-summary">
        {opSummary(current.ops)}
      </p>
      <p className="muted small">
        Arrived at {us(report.arrival_us)}, started {us(report.start_us)}, done {us(report.completion_us)} (simulated
        time).
      </p>
    </section>
  );
}
