/**
 * The hand-written Prometheus text format: families, label escaping, histograms, scrape-time
 * gauges, and refusal of names the format does not allow.
 * @module
 */
import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from './metrics.ts';

describe('MetricsRegistry', () => {
  it('renders counters and gauges with HELP, TYPE and escaped labels', () => {
    const r = new MetricsRegistry();
    const requests = r.counter('t_requests_total', 'Requests.\nBy route', ['route', 'status']);
    requests.inc(['/v1/x', '200']);
    requests.inc(['/v1/x', '200'], 2);
    requests.inc(['a"b\\c\nd', '404']);
    const inFlight = r.gauge('t_in_flight', 'In flight.');
    inFlight.add([], 3);
    inFlight.add([], -1);
    expect(r.render()).toBe(
      [
        '# HELP t_requests_total Requests.\\nBy route',
        '# TYPE t_requests_total counter',
        't_requests_total{route="/v1/x",status="200"} 3',
        't_requests_total{route="a\\"b\\\\c\\nd",status="404"} 1',
        '# HELP t_in_flight In flight.',
        '# TYPE t_in_flight gauge',
        't_in_flight 2',
        '',
      ].join('\n'),
    );
  });

  it('renders histograms as cumulative buckets with +Inf, sum and count', () => {
    const r = new MetricsRegistry();
    const h = r.histogram('t_seconds', 'Latency.', ['route'], [0.1, 1]);
    for (const v of [0.05, 0.1, 0.5, 3]) h.observe(['a'], v);
    expect(r.render()).toContain(
      [
        't_seconds_bucket{route="a",le="0.1"} 2',
        't_seconds_bucket{route="a",le="1"} 3',
        't_seconds_bucket{route="a",le="+Inf"} 4',
        't_seconds_sum{route="a"} 3.65',
        't_seconds_count{route="a"} 4',
      ].join('\n'),
    );
  });

  it('reads scrape-time gauges afresh on every render', () => {
    const r = new MetricsRegistry();
    let states: [string[], number][] = [[['WEB'], 2]];
    r.gauge('t_circuit_open', 'Open circuits.', ['client'], () => states);
    expect(r.render()).toContain('t_circuit_open{client="WEB"} 2');
    states = [[['ANDROID'], 0]];
    const text = r.render();
    expect(text).toContain('t_circuit_open{client="ANDROID"} 0');
    expect(text).not.toContain('WEB');
  });

  it('refuses invalid names, reserved labels, duplicates and decreasing counters', () => {
    const r = new MetricsRegistry();
    expect(() => r.counter('bad-name', 'x')).toThrow(/Invalid metric name/);
    expect(() => r.counter('ok_total', 'x', ['le'])).toThrow(/Invalid label/);
    expect(() => r.counter('ok2_total', 'x', ['__x'])).toThrow(/Invalid label/);
    r.counter('dup_total', 'x');
    expect(() => r.gauge('dup_total', 'x')).toThrow(/twice/);
    expect(() => r.counter('c_total', 'x').inc([], -1)).toThrow(/cannot decrease/);
    expect(() => r.counter('l_total', 'x', ['a', 'b']).inc(['only-one'])).toThrow(/takes 2 label values/);
  });
});
