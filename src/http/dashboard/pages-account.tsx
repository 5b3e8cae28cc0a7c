/**
 * A signed-in account's pages: the overview (balance, plan and limits, the 30-day usage chart,
 * recent batch jobs with progress bars), one batch job, and the quick start (a curl line and the
 * MCP client configuration).
 * @module
 */
/** @jsxImportSource hono/jsx */
import type { BatchJobRecord } from '../../core/batch-record.ts';
import type { UsageDay } from '../../core/usage.ts';
import { dashboardUrl } from './address.ts';
import { UsageCharts } from './chart.tsx';
import { type Html, Page, Scroll } from './layout.tsx';

/** What the overview shows. */
export interface OverviewData {
  email: string;
  csrf: string;
  accountId: string;
  credits: number;
  plan: string;
  perSecond: number;
  perDay: number | null;
  days: UsageDay[];
  jobs: BatchJobRecord[];
}

/** A job's progress bar and counts. */
function Progress(props: { job: BatchJobRecord }): Html {
  const { job } = props;
  return (
    <span>
      <progress max={job.total_tasks} value={job.completed_tasks} aria-label={`Progress of ${job.id}`}>
        {`${job.completed_tasks}/${job.total_tasks}`}
      </progress>{' '}
      {job.completed_tasks}/{job.total_tasks} ({job.failed_tasks} failed)
    </span>
  );
}

/** The jobs table (empty: a line that says so). */
export function JobsTable(props: { jobs: BatchJobRecord[] }): Html {
  if (props.jobs.length === 0) return <p class="muted">No batch jobs yet (POST /v1/batch creates them).</p>;
  return (
    <Scroll label="Batch jobs">
      <table>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Status</th>
            <th scope="col">Progress</th>
            <th scope="col">Credits</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {props.jobs.map((job) => (
            <tr>
              <td>
                <a href={dashboardUrl(`/jobs/${job.id}`)}>
                  <code>{job.id}</code>
                </a>
              </td>
              <td>{job.status}</td>
              <td>
                <Progress job={job} />
              </td>
              <td>{job.charged_credits}</td>
              <td>{job.created_at.slice(0, 16).replace('T', ' ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

/** `/dashboard` for an account. */
export function OverviewPage(props: OverviewData): Html {
  return (
    <Page title="Your account" viewer={{ kind: 'account', email: props.email }} csrf={props.csrf}>
      <section aria-labelledby="balance-h">
        <h2 id="balance-h">Balance and plan</h2>
        <div class="cards">
          <div class="card">
            <div class="label">Credits</div>
            <div class="big" id="credits">
              {props.credits}
            </div>
          </div>
          <div class="card">
            <div class="label">Plan</div>
            <div class="big">{props.plan}</div>
          </div>
          <div class="card">
            <div class="label">Requests per second</div>
            <div class="big">{props.perSecond}</div>
          </div>
          <div class="card">
            <div class="label">Requests per UTC day</div>
            <div class="big">{props.perDay === null ? 'no cap' : props.perDay}</div>
          </div>
        </div>
        <p class="muted">
          Account <code>{props.accountId}</code>
        </p>
      </section>
      <section aria-labelledby="usage-h">
        <h2 id="usage-h">Usage, last {props.days.length} days</h2>
        <UsageCharts days={props.days} idPrefix="usage" />
      </section>
      <section aria-labelledby="jobs-h">
        <h2 id="jobs-h">Recent batch jobs</h2>
        <JobsTable jobs={props.jobs} />
      </section>
    </Page>
  );
}

/** `/dashboard/jobs/{id}`: one of the account's jobs. */
export function JobPage(props: { email: string; csrf: string; job: BatchJobRecord }): Html {
  const { job } = props;
  return (
    <Page title={`Batch job ${job.id}`} viewer={{ kind: 'account', email: props.email }} csrf={props.csrf}>
      <JobsTable jobs={[job]} />
      <p>
        Estimated {job.estimated_credits} credits, charged {job.charged_credits}; {job.successful_tasks}{' '}
        succeeded, {job.failed_tasks} failed. Results: <code>GET /v1/batch/{job.id}</code> with your key.
      </p>
    </Page>
  );
}

/** `/dashboard/start`: how to call the API and configure an MCP client. */
export function QuickStartPage(props: { email: string; csrf: string; baseUrl: string }): Html {
  const curl = `curl -s '${props.baseUrl}/v1/transcripts?video_id=rCAS2eD-mcw&format=text' \\\n  -H "Authorization: Bearer $TUBESCRIBE_KEY"`;
  const mcp = JSON.stringify(
    {
      mcpServers: {
        tubescribe: { type: 'http', url: `${props.baseUrl}/mcp`, headers: { Authorization: 'Bearer tsk_…' } },
      },
    },
    null,
    2,
  );
  return (
    <Page title="Quick start" viewer={{ kind: 'account', email: props.email }} csrf={props.csrf}>
      <p>
        Create a key on the <a href={dashboardUrl('/keys')}>API keys</a> page, keep it on your server (never
        in code that runs in a browser), and put it in <code>TUBESCRIBE_KEY</code>.
      </p>
      <h2>A transcript with curl</h2>
      <pre id="curl">{curl}</pre>
      <button type="button" class="secondary" data-copy="curl" hidden>
        Copy
      </button>
      <h2>AI agents (MCP)</h2>
      <p>Claude Desktop, Claude Code, Cursor, VS Code and most MCP clients take this (replace the key):</p>
      <pre id="mcp">{mcp}</pre>
      <button type="button" class="secondary" data-copy="mcp" hidden>
        Copy
      </button>
      <p>
        The API reference is at <a href={`${props.baseUrl}/docs`}>{`${props.baseUrl}/docs`}</a>; your use per
        day is also at <code>GET /v1/usage?days=30</code>.
      </p>
    </Page>
  );
}
