import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useFormat } from '../../i18n/format';

const SERIES_COLOURS = ['#1f6feb', '#d92d20', '#e0a100', '#12a150', '#7c3aed', '#0891b2', '#db2777', '#64748b'];

export interface Series {
  key: string;
  label: string;
  colour?: string;
}

/**
 * A titled bar chart (recharts) with a table of the same numbers for screen readers: the figures
 * are the content, the bars only show them.
 */
export function BarChartCard<T extends Record<string, unknown>>({
  title,
  data,
  x,
  xTitle,
  series,
  stacked,
  height = 260,
  xLabel,
}: {
  title: string;
  data: T[];
  x: keyof T & string;
  /** What the bars stand for, in words (the head of the figures' first column for screen readers): 'Week', 'Device'. */
  xTitle: string;
  series: Series[];
  stacked?: boolean;
  height?: number;
  xLabel?: (v: unknown) => string;
}) {
  const f = useFormat();
  const label = xLabel ?? ((v: unknown) => String(v));
  return (
    <figure className="chart" aria-label={title}>
      <h3>{title}</h3>
      <div aria-hidden="true" style={{ width: '100%', height }}>
        {/* the table below carries the figures: the drawing takes no keyboard focus (accessibilityLayer off) */}
        <ResponsiveContainer>
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            {/* a few bars name each one (the chart would otherwise drop labels it finds crowded); many dates thin out */}
            <XAxis dataKey={x as string} tickFormatter={label} tick={{ fontSize: 12 }} interval={data.length <= 8 ? 0 : 'preserveEnd'} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} tickFormatter={(v: number) => f.number(v)} width={48} />
            <Tooltip labelFormatter={label} formatter={(v) => f.number(Number(v), 1)} />
            {series.length > 1 && <Legend />}
            {series.map((s, i) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                fill={s.colour ?? SERIES_COLOURS[i % SERIES_COLOURS.length]}
                stackId={stacked ? 'a' : undefined}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      {/* hidden in a box that clips it: a table is as wide as its cells whatever its own width, and widened the page */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{xTitle}</th>
              {series.map((s) => (
                <th key={s.key} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((row, i) => (
              <tr key={i}>
                <th scope="row">{label(row[x])}</th>
                {series.map((s) => (
                  <td key={s.key}>{f.number(Number(row[s.key] ?? 0), 1)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
