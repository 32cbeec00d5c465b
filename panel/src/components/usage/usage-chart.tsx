/**
 * Tokens and cost over the period, one point per hour (24h) or per day (7d, 30d), drawn with uPlot:
 * tokens on the left axis, dollars on the right. Redrawn with the theme's colours when the theme
 * changes and resized with its container. Screen readers get the same figures as a table.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatTokens, formatUsd } from '../../lib/format';
import type { TimeSeries } from './use-usage';

const token = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

function chartOptions(width: number, bucket: TimeSeries['bucket']): uPlot.Options {
  const axis = {
    stroke: token('--muted'),
    grid: { stroke: token('--border'), width: 1 },
    ticks: { show: false },
  };
  return {
    width,
    height: 240,
    cursor: { drag: { x: false, y: false } },
    legend: { show: true, live: true },
    scales: { x: { time: true }, usd: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    series: [
      { label: bucket === 'hour' ? 'Hour' : 'Day' },
      {
        label: 'Tokens',
        stroke: token('--accent'),
        fill: `${token('--accent')}22`,
        width: 2,
        value: (_u, v) => (v == null ? '—' : formatTokens(v)),
      },
      {
        label: 'Cost',
        scale: 'usd',
        stroke: token('--warn'),
        width: 2,
        dash: [6, 4],
        value: (_u, v) => (v == null ? '—' : formatUsd(v)),
      },
    ],
    axes: [
      { ...axis },
      { ...axis, size: 56, values: (_u, ticks) => ticks.map((v) => formatTokens(v)) },
      {
        ...axis,
        scale: 'usd',
        side: 1,
        size: 64,
        grid: { show: false },
        values: (_u, ticks) => ticks.map((v) => formatUsd(v)),
      },
    ],
  };
}

export function UsageChart({ series }: { series: TimeSeries }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      series.points.map((p) => new Date(p.at).getTime() / 1000),
      series.points.map((p) => p.total_tokens),
      series.points.map((p) => p.cost_usd),
    ];
    let chart: uPlot | null = null;
    const draw = () => {
      chart?.destroy();
      chart = new uPlot(chartOptions(element.clientWidth, series.bucket), data, element);
    };
    draw();
    const resize = new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height: 240 }));
    resize.observe(element);
    const theme = new MutationObserver(draw);
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      resize.disconnect();
      theme.disconnect();
      chart?.destroy();
    };
  }, [series]);

  return (
    <figure aria-label="Tokens and cost over time">
      <div ref={box} data-testid="usage-chart" className="usage-chart w-full" aria-hidden />
      <table className="sr-only">
        <caption>Tokens and cost per {series.bucket}</caption>
        <thead>
          <tr>
            <th scope="col">Start</th>
            <th scope="col">Tokens</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {series.points.map((p) => (
            <tr key={p.at}>
              <td>{p.at}</td>
              <td>{p.total_tokens}</td>
              <td>{formatUsd(p.cost_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
