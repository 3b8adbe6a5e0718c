// The bench's chart (an SVG written with the results): req/s per server for each cell, grouped by
// cell, with the floor drawn as a line across its group. Plain SVG, no library, no script.
const COLORS = { bare: '#8c8c8c', 'sdk-v1': '#b07aa1', fastmcp: '#f28e2b', 'fa-off': '#76b7b2', 'fa-on': '#4e79a7' };
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** @param {{ cells: {id: string, label: string}[], servers: {id: string, label: string, kind: string}[], throughput: {server: string, path: string, reqPerSec: number}[], date: string }} input */
export function renderChart({ cells, servers, throughput, date }) {
  const bars = servers.filter((s) => s.kind !== 'floor');
  const figure = (server, cell) => throughput.find((t) => t.server === server && t.path === cell)?.reqPerSec;
  const max = Math.max(1, ...throughput.map((t) => t.reqPerSec));
  const scale = Math.pow(10, Math.floor(Math.log10(max)));
  const top = Math.ceil(max / scale) * scale;
  const barW = 14;
  const groupW = bars.length * barW + 26;
  const left = 64;
  const plotH = 260;
  const plotTop = 40;
  const width = left + cells.length * groupW + 110;
  const height = plotTop + plotH + 120;
  const y = (v) => plotTop + plotH - (v / top) * plotH;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${left}" y="20" font-size="14" font-weight="bold">req/s per server (higher is better); dashed line: the floor (node:http + JSON, no MCP) — ${esc(date.slice(0, 10))}</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const v = (top / 4) * i;
    out.push(`<line x1="${left}" x2="${width - 10}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e5e5"/>`, `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${Math.round(v).toLocaleString('en-US')}</text>`);
  }
  cells.forEach((cell, gi) => {
    const x0 = left + gi * groupW + 13;
    bars.forEach((server, bi) => {
      const v = figure(server.id, cell.id);
      if (v === undefined) return;
      out.push(`<rect x="${x0 + bi * barW}" y="${y(v)}" width="${barW - 2}" height="${plotTop + plotH - y(v)}" fill="${COLORS[server.id] ?? '#59a14f'}"><title>${esc(server.label)}, ${esc(cell.label)}: ${v} req/s</title></rect>`);
    });
    const floor = figure('floor', cell.id);
    if (floor !== undefined) out.push(`<line x1="${x0 - 4}" x2="${x0 + bars.length * barW + 2}" y1="${y(floor)}" y2="${y(floor)}" stroke="#d62728" stroke-width="2" stroke-dasharray="4 3"><title>floor: ${floor} req/s</title></line>`);
    const lx = x0 + (bars.length * barW) / 2;
    out.push(`<text transform="translate(${lx},${plotTop + plotH + 10}) rotate(35)" text-anchor="start">${esc(cell.id)}</text>`);
  });
  let lx = left;
  const ly = height - 16;
  for (const server of bars) {
    out.push(`<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${COLORS[server.id] ?? '#59a14f'}"/>`, `<text x="${lx + 14}" y="${ly}">${esc(server.label)}</text>`);
    lx += 14 + server.label.length * 6.2 + 18;
  }
  out.push(`<line x1="${lx}" x2="${lx + 16}" y1="${ly - 4}" y2="${ly - 4}" stroke="#d62728" stroke-width="2" stroke-dasharray="4 3"/>`, `<text x="${lx + 20}" y="${ly}">floor</text>`, '</svg>');
  return `${out.join('\n')}\n`;
}
