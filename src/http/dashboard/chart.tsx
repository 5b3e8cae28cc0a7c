/**
 * The usage charts, drawn on the server as SVG (no library, no script): requests per UTC day as
 * bars stacked by operation, credits per day as plain bars, each with a legend, a text summary and
 * the numbers in a table for screen readers and for reading exact values.
 * @module
 */
/** @jsxImportSource hono/jsx */
import { operationsUsed, type UsageDay } from '../../core/usage.ts';
import { type Html, Scroll } from './layout.tsx';

/** Bar colours, distinguishable and dark enough on white. */
const PALETTE = ['#0b57d0', '#d2670a', '#1e8e3e', '#a142f4', '#c5221f', '#007b83', '#7a5200', '#5f6368'];
const W = 720;
const H = 220;
const LEFT = 44;
const BOTTOM = 28;
const TOP = 10;

/** The smallest "round" number ≥ `n` (1, 2, 5 × 10^k), so the axis reads at a glance. */
export function niceCeiling(n: number): number {
  if (n <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * power >= n) return step * power;
  return 10 * power;
}

interface Segment {
  label: string;
  value: number;
  color: string;
}

/** One bar chart over the days: every bar a stack of segments. */
function Bars(props: {
  id: string;
  title: string;
  days: UsageDay[];
  stacks: Segment[][];
  unit: string;
}): Html {
  const { days, stacks } = props;
  const max = niceCeiling(Math.max(0, ...stacks.map((s) => s.reduce((sum, seg) => sum + seg.value, 0))));
  const plotW = W - LEFT - 8;
  const plotH = H - TOP - BOTTOM;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => TOP + plotH - (v / max) * plotH;
  const labelEvery = Math.max(1, Math.ceil(days.length / 6));
  const total = stacks.reduce((sum, s) => sum + s.reduce((a, seg) => a + seg.value, 0), 0);
  return (
    <Scroll class="plot" label={props.title}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${props.id}-t ${props.id}-d`}>
        <title id={`${props.id}-t`}>{props.title}</title>
        <desc
          id={`${props.id}-d`}
        >{`${total} ${props.unit} over ${days.length} days; the highest day is at most ${max}.`}</desc>
        {[0, max / 2, max].map((v) => (
          <g>
            <line x1={LEFT} x2={W - 8} y1={y(v)} y2={y(v)} stroke="#d0d0d0" />
            <text x={LEFT - 6} y={y(v) + 4} text-anchor="end" font-size="12" fill="#444">
              {String(v)}
            </text>
          </g>
        ))}
        {stacks.map((stack, i) => {
          let base = 0;
          const x = LEFT + i * slot + (slot - barW) / 2;
          return (
            <g>
              {stack
                .filter((seg) => seg.value > 0)
                .map((seg) => {
                  const top = y(base + seg.value);
                  const height = y(base) - top;
                  base += seg.value;
                  return (
                    <rect
                      x={x.toFixed(1)}
                      y={top.toFixed(1)}
                      width={barW.toFixed(1)}
                      height={height.toFixed(1)}
                      fill={seg.color}
                    >
                      <title>{`${days[i]?.date}: ${seg.value} ${seg.label}`}</title>
                    </rect>
                  );
                })}
              {i % labelEvery === 0 || i === days.length - 1 ? (
                <text x={(x + barW / 2).toFixed(1)} y={H - 8} text-anchor="middle" font-size="12" fill="#444">
                  {days[i]?.date.slice(5) ?? ''}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </Scroll>
  );
}

/** The requests and credits charts of `days`, with legend and table. */
export function UsageCharts(props: { days: UsageDay[]; idPrefix: string }): Html {
  const { days } = props;
  const ops = operationsUsed(days);
  const color = (op: string) => PALETTE[ops.indexOf(op) % PALETTE.length] ?? '#5f6368';
  const requests = days.map((d) =>
    ops.map((op) => ({ label: op, value: d.by_operation[op] ?? 0, color: color(op) })),
  );
  const credits = days.map((d) => [{ label: 'credits', value: d.credits, color: '#0b57d0' }]);
  const totalRequests = days.reduce((a, d) => a + d.requests, 0);
  const totalCredits = days.reduce((a, d) => a + d.credits, 0);
  return (
    <div class="chart">
      <p>
        <strong>{totalRequests}</strong> requests and <strong>{totalCredits}</strong> credits in the last{' '}
        {days.length} days (UTC); today: {days.at(-1)?.requests ?? 0} requests, {days.at(-1)?.credits ?? 0}{' '}
        credits.
      </p>
      <h3>Requests per day, by operation</h3>
      {ops.length > 0 ? (
        <ul class="legend" aria-label="Operations">
          {ops.map((op) => (
            <li>
              <span class="swatch" style={`background:${color(op)}`}></span>
              {op}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No requests yet.</p>
      )}
      <Bars
        id={`${props.idPrefix}-req`}
        title="Requests per day"
        days={days}
        stacks={requests}
        unit="requests"
      />
      <h3>Credits per day</h3>
      <Bars id={`${props.idPrefix}-cr`} title="Credits per day" days={days} stacks={credits} unit="credits" />
      <details>
        <summary>The numbers, day by day</summary>
        <Scroll label="Usage per day">
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Requests</th>
                <th scope="col">Credits</th>
                <th scope="col">By operation</th>
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((d) => (
                <tr>
                  <td>{d.date}</td>
                  <td>{d.requests}</td>
                  <td>{d.credits}</td>
                  <td>
                    {Object.entries(d.by_operation)
                      .map(([op, n]) => `${op}: ${n}`)
                      .join(', ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      </details>
    </div>
  );
}
