/**
 * The forecast card: an MCP Apps view built on the App class of
 * @modelcontextprotocol/ext-apps. It shows the tool result the host sends, and
 * switches units by calling the app-only tool `forecast_in_unit` through the host.
 */
import { App } from '@modelcontextprotocol/ext-apps/app-with-deps';

interface ForecastDay {
  date: string;
  sky: string;
  high: number;
  low: number;
}
interface Forecast {
  city: string;
  unit: 'C' | 'F';
  days: ForecastDay[];
}

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = byId<HTMLParagraphElement>('status');
const card = byId<HTMLElement>('card');
const city = byId<HTMLHeadingElement>('city');
const rows = byId<HTMLTableSectionElement>('days');
const unitButton = byId<HTMLButtonElement>('unit');

let shown: { forecast: Forecast; days: number } | undefined;

function isForecast(value: unknown): value is Forecast {
  const f = value as Partial<Forecast> | undefined;
  return typeof f?.city === 'string' && (f.unit === 'C' || f.unit === 'F') && Array.isArray(f.days);
}

function showStatus(text: string, error = false): void {
  status.textContent = text;
  status.className = error ? 'error' : '';
  status.hidden = false;
}

function render(forecast: Forecast): void {
  shown = { forecast, days: forecast.days.length };
  city.textContent = forecast.city;
  rows.replaceChildren(
    ...forecast.days.map((d) => {
      const tr = document.createElement('tr');
      tr.dataset.testid = 'day';
      for (const [text, numeric] of [[d.date, false], [d.sky, false], [`${d.low} °${forecast.unit}`, true], [`${d.high} °${forecast.unit}`, true]] as const) {
        const td = document.createElement('td');
        td.textContent = text;
        if (numeric) td.className = 'num';
        tr.append(td);
      }
      return tr;
    }),
  );
  unitButton.textContent = forecast.unit === 'C' ? 'Show °F' : 'Show °C';
  card.hidden = false;
  status.hidden = true;
}

function showResult(result: { structuredContent?: unknown; isError?: boolean; content?: Array<{ type: string; text?: string }> }): void {
  if (result.isError || !isForecast(result.structuredContent)) {
    const text = result.content?.find((c) => c.type === 'text')?.text ?? 'The forecast could not be read.';
    showStatus(text, true);
    return;
  }
  render(result.structuredContent);
}

const app = new App({ name: 'forecast-card', version: '1.0.0' });

app.ontoolinput = ({ arguments: args }) => {
  showStatus(`Loading the forecast of ${String(args?.city ?? 'the city')}…`);
};
app.ontoolresult = (result) => showResult(result);

unitButton.addEventListener('click', async () => {
  if (!shown) return;
  const unit = shown.forecast.unit === 'C' ? 'F' : 'C';
  unitButton.disabled = true;
  try {
    showResult(await app.callServerTool({ name: 'forecast_in_unit', arguments: { city: shown.forecast.city, days: shown.days, unit } }));
  } catch (err) {
    showStatus(`Switching units failed: ${(err as Error).message}`, true);
  } finally {
    unitButton.disabled = false;
  }
});

await app.connect();
