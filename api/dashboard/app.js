// The Sightline dashboard: a client of the public API. The view is chosen by
// the URL's fragment (organization, project, tracked query and filters,
// never the key), so views can be bookmarked and the back button works.

import { session, get, describe, APIError } from './api.js';
import { el, fmt, trend } from './dom.js';
import { lineChart, barChart, stackBar } from './charts.js';

const main = document.getElementById('main');
const signOutButton = document.getElementById('signout');
const v1 = '/api/v1';
let renderCount = 0;

signOutButton.addEventListener('click', () => {
  session.signOut();
  render();
});
window.addEventListener('hashchange', render);
render();

// route reads the fragment: #/o/ORG/p/PROJECT/q/QUERY?filters.
function route() {
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  const ids = {};
  for (let i = 0; i + 1 < parts.length; i += 2) ids[parts[i]] = decodeURIComponent(parts[i + 1]);
  return { org: ids.o, project: ids.p, query: ids.q, params: new URLSearchParams(query) };
}

function link(r, params) {
  let h = '#/';
  if (r.org) h += `o/${r.org}`;
  if (r.project) h += `/p/${r.project}`;
  if (r.query) h += `/q/${r.query}`;
  const q = params ? params.toString() : '';
  return q ? `${h}?${q}` : h;
}

// navigate changes one or more filters of the current view.
function navigate(changes) {
  const r = route();
  for (const [k, v] of Object.entries(changes)) {
    if (v == null || v === '') r.params.delete(k);
    else r.params.set(k, v);
  }
  location.hash = link(r, r.params);
}

async function render() {
  const token = ++renderCount;
  const stale = () => token !== renderCount;
  signOutButton.hidden = !session.key();
  if (!session.key()) {
    show(signInView());
    return;
  }
  const r = route();
  try {
    if (r.query) await queryView(r, stale);
    else if (r.project) await projectView(r, stale);
    else if (r.org) await overviewView(r, stale);
    else await organizationsView(stale);
  } catch (err) {
    if (!stale()) show(failure(err));
  }
}

function show(...nodes) {
  main.replaceChildren(...nodes);
}

// failure is an error in words; a rejected key returns to the sign-in form.
function failure(err, retry = render) {
  const d = describe(err);
  if (d.signOut) {
    session.signOut();
    signOutButton.hidden = true;
    return signInView(d);
  }
  return el('div', { class: 'error', role: 'alert', dataset: { status: err instanceof APIError ? String(err.status) : '' } },
    el('h2', {}, d.title), el('p', {}, d.text),
    d.retry ? el('button', { type: 'button', onclick: () => retry() }, 'Try again') : null);
}

function loading(what) {
  return el('p', { class: 'loading', 'aria-busy': 'true' }, `Loading ${what}…`);
}

// section is a titled panel that loads on its own: it shows loading, then
// what fill builds, or the failure in words.
function section(title, fill, { id, wide } = {}) {
  const body = el('div', { class: 'body' }, loading(title.toLowerCase()));
  const node = el('section', { class: `panel${wide ? ' wide' : ''}`, id, 'aria-labelledby': `${id}-title` },
    el('h2', { id: `${id}-title` }, title), body);
  const load = () => {
    body.replaceChildren(loading(title.toLowerCase()));
    Promise.resolve().then(fill).then((content) => body.replaceChildren(...[content].flat().filter((n) => n != null)))
      .catch((err) => {
        if (err instanceof APIError && err.status === 401) {
          show(failure(err));
          return;
        }
        body.replaceChildren(failure(err, load));
      });
  };
  load();
  return node;
}

function signInView(problem) {
  const input = el('input', { id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'off', required: true, spellcheck: 'false' });
  const message = el('div', { id: 'signin-problem', role: 'alert' },
    problem ? [el('strong', {}, problem.title), ' ', problem.text] : null);
  const form = el('form', { class: 'signin', novalidate: true },
    el('h1', {}, 'Sign in to Sightline'),
    el('p', {}, 'Paste an API key. It stays in this browser tab only (session storage) and is sent to this server alone, in the Authorization header.'),
    el('label', { for: 'api-key' }, 'API key'), input,
    el('button', { type: 'submit' }, 'Sign in'), message);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!input.value.trim()) {
      message.replaceChildren('Paste an API key first.');
      return;
    }
    session.signIn(input.value);
    input.value = '';
    message.replaceChildren(loading('your account'));
    try {
      await get(`${v1}/me`);
      render();
    } catch (err) {
      // A key that cannot read the account cannot run the dashboard.
      session.signOut();
      const d = describe(err);
      message.replaceChildren(el('strong', {}, d.title), ' ', d.text);
    }
  });
  queueMicrotask(() => input.focus());
  return form;
}

async function organizationsView(stale) {
  show(loading('organizations'));
  const orgs = await get(`${v1}/organizations`, { limit: 100, sortBy: 'name', sortOrder: 'asc', status: 'active' });
  if (stale()) return;
  if (orgs.page.length === 1) {
    location.replace(link({ org: orgs.page[0].id }));
    return;
  }
  show(el('h1', {}, 'Organizations'),
    orgs.page.length === 0 ? el('p', { class: 'empty' }, 'This API key sees no active organization.')
      : el('ul', { class: 'orgs' }, orgs.page.map((o) => el('li', {}, el('a', { href: link({ org: o.id }) }, o.name)))));
}

async function overviewView(r, stale) {
  show(loading('the organization overview'));
  const [org, overview] = await Promise.all([get(`${v1}/organizations/${r.org}`), get(`${v1}/organizations/${r.org}/overview`)]);
  if (stale()) return;
  crumbs([{ text: org.name }]);
  const rows = overview.projects;
  const agg = overview.aggregate;
  show(el('h1', {}, org.name),
    el('p', { class: 'sub' }, `Projects by share of voice, ${overview.windowFrom} to ${overview.windowTo} (UTC), trend against the 30 days before.`),
    rows.length === 0 ? el('p', { class: 'empty' }, 'This organization has no active project yet.')
      : el('div', { class: 'scroll' }, el('table', { class: 'overview' },
        el('thead', {}, el('tr', {}, ['Project', 'Share of voice', '95% interval', 'Trend', 'Mention rate', 'Avg. position', 'Tracked queries']
          .map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, rows.map((p) => el('tr', { dataset: { project: p.projectId } },
          el('th', { scope: 'row' }, el('a', { href: link({ org: r.org, project: p.projectId }) }, p.name)),
          el('td', { class: 'num sov' }, fmt.percent(p.shareOfVoice)),
          el('td', { class: 'num' }, p.shareOfVoiceInterval ? fmt.interval(p.shareOfVoiceInterval) : 'no data'),
          el('td', {}, trend(p.trendShareOfVoice)),
          el('td', { class: 'num' }, fmt.percent(p.mentionRate)),
          el('td', { class: 'num' }, fmt.position(p.avgMentionPosition)),
          el('td', { class: 'num' }, fmt.count(p.trackedQueryCount))))),
        el('tfoot', {}, el('tr', {},
          el('th', { scope: 'row' }, `All ${agg.projectCount} projects`),
          el('td', { class: 'num' }, fmt.percent(agg.shareOfVoice)),
          el('td', { class: 'num' }, fmt.interval(agg.shareOfVoiceInterval)),
          el('td', {}, ''),
          el('td', { class: 'num' }, fmt.percent(agg.mentionRate)),
          el('td', { class: 'num' }, fmt.position(agg.avgMentionPosition)),
          el('td', { class: 'num' }, fmt.count(agg.totalTrackedQueries)))))),
    section('Check budget', () => budgetPanel(r.org), { id: 'budget', wide: true }));
}

// budgetPanel shows the plan's checks; only owners may read it, so other
// members see the API's refusal in words.
async function budgetPanel(org) {
  const e = await get(`${v1}/organizations/${org}/entitlements`);
  if (e.status === 'none') return el('p', { class: 'empty' }, 'No subscription yet: checks run once one is active.');
  return el('p', {}, `${fmt.count(e.checksUsed)} of ${fmt.count(e.checkBudget)} checks used this period (${e.tier || 'no'} plan, ${e.status}); `,
    `${fmt.count(e.checksAvailable)} left, next reset ${fmt.time(e.nextResetAt)}.`);
}

function crumbs(items) {
  const nav = document.getElementById('crumbs');
  nav.replaceChildren(...items.map((c, i) => el('span', {}, i ? ' / ' : '', c.href ? el('a', { href: c.href }, c.text) : c.text)));
}

// Windows and their dates, in UTC days: a window of n days ends yesterday.
const day = 24 * 3600 * 1000;
const iso = (t) => new Date(t).toISOString().slice(0, 10);
function todayUTC() {
  const n = new Date();
  return Date.UTC(n.getUTCFullYear(), n.getUTCMonth(), n.getUTCDate());
}
// retentionFloor is the first day the API still answers: 16 months back,
// the day of the month clamped to that month's length.
function retentionFloor() {
  const n = new Date();
  const first = new Date(Date.UTC(n.getUTCFullYear(), n.getUTCMonth() - 16, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return iso(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(n.getUTCDate(), last)));
}

function windowOf(params) {
  const w = params.get('window') || '30';
  if (w === 'custom') {
    const floor = retentionFloor();
    let from = params.get('from') || iso(todayUTC() - 30 * day);
    let to = params.get('to') || iso(todayUTC() - day);
    if (from < floor) from = floor;
    if (to < from) to = from;
    const days = Math.round((Date.parse(to) - Date.parse(from)) / day) + 1;
    return { key: w, dateFrom: from, dateTo: to, days };
  }
  const days = Number(w) || 30;
  return { key: String(days), dateFrom: iso(todayUTC() - days * day), dateTo: iso(todayUTC() - day), days };
}

// filterBar is the window picker and, given the project's filters, the
// engine and country filters.
function filterBar(params, filters, win) {
  const select = (id, label, value, options, onchange) => el('div', { class: 'field' },
    el('label', { for: id }, label),
    el('select', { id, onchange: (e) => onchange(e.target.value) },
      options.map(([v, text]) => el('option', { value: v, selected: v === value }, text))));
  const custom = win.key === 'custom' ? [
    el('div', { class: 'field' }, el('label', { for: 'date-from' }, 'From'),
      el('input', { id: 'date-from', type: 'date', value: win.dateFrom, min: retentionFloor(), max: iso(todayUTC()),
        onchange: (e) => navigate({ from: e.target.value }) })),
    el('div', { class: 'field' }, el('label', { for: 'date-to' }, 'To'),
      el('input', { id: 'date-to', type: 'date', value: win.dateTo, min: retentionFloor(), max: iso(todayUTC()),
        onchange: (e) => navigate({ to: e.target.value }) })),
  ] : [];
  return el('form', { class: 'filters', 'aria-label': 'Filters', onsubmit: (e) => e.preventDefault() },
    select('window', 'Window', win.key, [['7', 'Last 7 days'], ['30', 'Last 30 days'], ['90', 'Last 90 days'], ['custom', 'Custom dates']],
      (v) => navigate(v === 'custom' ? { window: v, from: win.dateFrom, to: win.dateTo } : { window: v, from: null, to: null })),
    custom,
    filters ? [
      select('engine', 'Engine', params.get('engine') || '', [['', 'All engines'], ...filters.engines.map((e) => [e, engineName(e)])],
        (v) => navigate({ engine: v, offset: null })),
      select('country', 'Country', params.get('country') || '', [['', 'All countries'], ...filters.countries.map((c) => [c, c])],
        (v) => navigate({ country: v, offset: null })),
    ] : null,
    el('p', { class: 'window-note' }, `${win.dateFrom} to ${win.dateTo} (UTC), ${win.days} days; trends compare with the ${win.days} days before.`));
}

const engineNames = {
  chatgpt: 'ChatGPT', perplexity: 'Perplexity', google_ai_overview: 'Google AI Overview',
  google_ai_mode: 'Google AI Mode', google_serp: 'Google results', google_shopping: 'Google Shopping',
};
const engineName = (e) => engineNames[e] || e;

async function projectView(r, stale) {
  show(loading('the project'));
  const base = `${v1}/organizations/${r.org}/projects/${r.project}`;
  const [org, project, filters] = await Promise.all([
    get(`${v1}/organizations/${r.org}`), get(base), get(`${base}/available-filters`)]);
  if (stale()) return;
  crumbs([{ text: org.name, href: link({ org: r.org }) }, { text: project.name }]);
  const p = r.params;
  const win = windowOf(p);
  const engines = p.get('engine') ? [p.get('engine')] : [];
  const countries = p.get('country') ? [p.get('country')] : [];
  const scope = { dateFrom: win.dateFrom, dateTo: win.dateTo, engines, countries };
  const metricsPromise = get(`${base}/metrics`, scope);
  metricsPromise.catch(() => {});

  show(el('h1', {}, project.name),
    filterBar(p, filters, win),
    el('div', { id: 'empty-state' }),
    section('Headline figures', async () => {
      const m = await metricsPromise;
      if (!hasData(m)) document.getElementById('empty-state').replaceChildren(await emptyState(base, win, scope));
      return cards(m, win);
    }, { id: 'cards', wide: true }),
    section('Over time', () => timeseriesPanel(`${base}/timeseries`, scope, p, project), { id: 'timeseries', wide: true }),
    section('Share of voice by brand', async () => sovBars(await metricsPromise, project), { id: 'sov' }),
    section('Sentiment', async () => sentimentPanel(await get(`${base}/sentiment`, scope), await metricsPromise), { id: 'sentiment' }),
    section('Movers', () => moversPanel(base, scope, r), { id: 'movers', wide: true }),
    section('Cited sources', () => sourcesPanel(base, scope), { id: 'sources' }),
    section('Keywords', () => keywordsPanel(base, scope, r), { id: 'keywords', wide: true }));
}

function hasData(m) {
  return m.mentionRate != null || m.serpRate != null || m.shoppingRate != null || m.shareOfVoice != null;
}

// emptyState says why there is nothing to show and when there will be.
async function emptyState(base, win, scope) {
  const note = (text, title = 'No data yet') => el('div', { class: 'empty', role: 'status' }, el('h2', {}, title), el('p', {}, text));
  if (scope.engines.length || scope.countries.length) {
    return note(`Nothing was captured for these filters from ${win.dateFrom} to ${win.dateTo}. Choose another engine or country, or a wider window.`,
      'No data for these filters');
  }
  const queries = await get(`${base}/tracked-queries`, { limit: 100, status: 'active' });
  if (queries.total === 0) {
    return note('This project has no active tracked query. Add tracked queries; their first checks run within a minute.');
  }
  const interval = { daily: 1, weekly: 7, monthly: 30 };
  const now = Date.now();
  const checked = queries.page.filter((q) => q.lastCheckedAt);
  if (checked.length > 0) {
    const last = Math.max(...checked.map((q) => Date.parse(q.lastCheckedAt)));
    return note(`Nothing was captured from ${win.dateFrom} to ${win.dateTo}. The latest check ran at ${fmt.time(last)}; choose a window that includes it.`,
      'No data in this window');
  }
  const next = Math.min(...queries.page.map((q) => (q.lastCheckedAt ? Date.parse(q.lastCheckedAt) + interval[q.checkFrequency] * day : now + 60000)));
  return note(`No check has run yet for this project's ${queries.total} tracked queries: the first checks run at ${fmt.time(next)}, and figures appear here once they complete.`);
}

function cards(m, win) {
  const vs = `vs previous ${win.days} days`;
  const card = (id, title, value, trendNode, sample) => el('div', { class: 'card', dataset: { metric: id } },
    el('h3', {}, title), el('p', { class: 'value' }, value), el('p', { class: 'trendline' }, trendNode, ' ', el('span', { class: 'vs' }, vs)),
    el('p', { class: 'sample' }, sample));
  const rate = (id, title, v, t, i) => card(id, title, fmt.percent(v), trend(t), i ? fmt.interval(i) : 'no completed capture measured it');
  return el('div', { class: 'cards' },
    rate('shareOfVoice', 'Share of voice', m.shareOfVoice, m.trendShareOfVoice, m.shareOfVoiceInterval),
    rate('mentionRate', 'Mention rate', m.mentionRate, m.trendMentionRate, m.mentionRateInterval),
    card('avgMentionPosition', 'Average position', fmt.position(m.avgMentionPosition), trend(m.trendAvgMentionPosition, -1, 'places'),
      m.avgMentionPosition == null ? 'never mentioned in the window'
        : `${fmt.count(m.mentionCount)} mentions, best #${m.bestMentionPosition}`),
    rate('serpRate', 'SERP rate', m.serpRate, m.trendSerpRate, m.serpRateInterval),
    rate('shoppingRate', 'Shopping rate', m.shoppingRate, m.trendShoppingRate, m.shoppingRateInterval));
}

const chartMetrics = [['shareOfVoice', 'Share of voice', 'percent'], ['mentionRate', 'Mention rate', 'percent'],
  ['mention', 'Average mention position', 'position']];

// chosenCompetitors are the competitors charted: those in the fragment, by
// default the first two.
function chosenCompetitors(params, project) {
  const known = project.competitors.map((c) => c.id);
  if (params.has('competitors')) return params.get('competitors').split(',').filter((id) => known.includes(id));
  return known.slice(0, 2);
}

async function timeseriesPanel(path, scope, params, project) {
  const granularity = params.get('granularity') || 'daily';
  const metric = params.get('metric') || 'shareOfVoice';
  const chosen = chosenCompetitors(params, project);
  const ts = await get(path, { ...scope, granularity, competitorIds: chosen });
  return [chartControls(params, project, chosen, granularity, metric), seriesChart(ts, project, chosen, metric)];
}

function chartControls(params, project, chosen, granularity, metric) {
  return el('div', { class: 'chart-controls' },
    el('div', { class: 'field' }, el('label', { for: 'granularity' }, 'Buckets'),
      el('select', { id: 'granularity', onchange: (e) => navigate({ granularity: e.target.value }) },
        [['daily', 'Days'], ['weekly', 'Weeks'], ['monthly', 'Months']].map(([v, t]) => el('option', { value: v, selected: v === granularity }, t)))),
    el('div', { class: 'field' }, el('label', { for: 'metric' }, 'Figure'),
      el('select', { id: 'metric', onchange: (e) => navigate({ metric: e.target.value }) },
        chartMetrics.map(([v, t]) => el('option', { value: v, selected: v === metric }, t)))),
    project.competitors.length === 0 ? null : el('fieldset', { class: 'competitors' }, el('legend', {}, 'Compare with'),
      project.competitors.map((c) => el('label', {},
        el('input', { type: 'checkbox', value: c.id, checked: chosen.includes(c.id), onchange: (e) => {
          const next = e.target.checked ? [...chosen, c.id] : chosen.filter((id) => id !== c.id);
          navigate({ competitors: next.join(',') || ',' });
        } }), ' ', c.name))));
}

function seriesChart(ts, project, chosen, metric) {
  if (ts.points.length === 0) return el('p', { class: 'empty' }, 'No tracked query yet, so nothing to chart.');
  const [, label, unit] = chartMetrics.find(([v]) => v === metric) || chartMetrics[0];
  const names = Object.fromEntries(project.competitors.map((c) => [c.id, c.name]));
  const series = [{ name: `${project.name} (own)`, values: ts.points.map((pt) => pt[metric] ?? null) },
    ...chosen.map((id) => ({ name: names[id], values: ts.points.map((pt) => (pt.competitors[id] ? pt.competitors[id][metric] ?? null : null)) }))];
  return lineChart({ title: label, dates: ts.points.map((pt) => pt.date), series, unit });
}

function sovBars(m, project) {
  const rows = [{ name: `${project.name} (own)`, value: m.shareOfVoice, interval: m.shareOfVoiceInterval },
    ...m.competitors.map((c) => ({ name: c.name, value: c.shareOfVoice, interval: c.shareOfVoiceInterval }))];
  return barChart({ title: 'Share of voice by brand, with 95% intervals', rows });
}

function sentimentPanel(s, m) {
  const row = (name, x) => el('tr', {},
    el('th', { scope: 'row' }, name),
    el('td', {}, stackBar([{ label: 'positive', count: x.positive }, { label: 'neutral', count: x.neutral }, { label: 'negative', count: x.negative }], name)),
    el('td', { class: 'num' }, `${x.positive} / ${x.neutral} / ${x.negative}`),
    el('td', { class: 'num' }, fmt.percent(x.positivityIndex)));
  return el('div', { class: 'scroll' }, el('table', { class: 'sentiment' },
    el('caption', {}, 'Mentions by tone: positive / neutral / negative, and the positivity index'),
    el('thead', {}, el('tr', {}, ['', 'Split', 'Counts', 'Positivity'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {},
      row('Own brand, all engines', { positive: m.sentimentPositive, neutral: m.sentimentNeutral, negative: m.sentimentNegative, positivityIndex: m.positivityIndex }),
      s.perEngine.map((e) => row(engineName(e.engine), e)),
      s.perCompetitor.map((c) => row(c.name, c)))));
}

async function moversPanel(base, scope, r) {
  const params = { dateFrom: scope.dateFrom, dateTo: scope.dateTo, engines: scope.engines, countries: scope.countries, limit: 5 };
  const [gainers, losers] = await Promise.all([
    get(`${base}/metrics/movers`, { ...params, sortOrder: 'desc' }), get(`${base}/metrics/movers`, { ...params, sortOrder: 'asc' })]);
  const list = (title, rows, cls) => el('div', { class: `movers ${cls}` }, el('h3', {}, title),
    rows.length === 0 ? el('p', { class: 'empty' }, 'No tracked query moved.') : el('ol', {}, rows.map((row) => el('li', {},
      el('a', { href: link({ ...r, query: row.trackedQueryId }, drillParams(r.params)) }, row.queryText),
      ` (${engineName(row.engine)}, ${row.country}) `, trend(row.trendShareOfVoice), ' ',
      row.significant ? el('strong', { class: 'significant', title: 'Larger than chance at the 95% level' }, '★ significant') : null))));
  const moved = (rows, sign) => rows.filter((row) => row.trendShareOfVoice != null && Math.sign(row.trendShareOfVoice) === sign);
  return el('div', { class: 'movers-grid' },
    list('Top gainers (share of voice)', moved(gainers.rows, 1), 'gainers'),
    list('Top losers (share of voice)', moved(losers.rows, -1), 'losers'));
}

// drillParams keeps the window when opening a tracked query.
function drillParams(params) {
  const out = new URLSearchParams();
  for (const k of ['window', 'from', 'to', 'granularity', 'competitors', 'metric']) if (params.has(k)) out.set(k, params.get(k));
  return out;
}

async function sourcesPanel(base, scope) {
  const s = await get(`${base}/cited-sources`, { dateFrom: scope.dateFrom, dateTo: scope.dateTo, engines: scope.engines, limit: 10 });
  if (s.sources.length === 0) return el('p', { class: 'empty' }, 'No cited source in this window.');
  return [scope.countries.length ? el('p', { class: 'note' }, 'Sources cover every country: they cannot be narrowed by country.') : null,
    el('div', { class: 'scroll' }, el('table', { class: 'sources' },
      el('thead', {}, el('tr', {}, ['Domain', 'Citations', 'Answers', 'Queries', 'Avg. position'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, s.sources.map((x) => el('tr', {},
        el('th', { scope: 'row' }, x.domain), el('td', { class: 'num' }, fmt.count(x.citationCount)),
        el('td', { class: 'num' }, fmt.count(x.distinctResponseCount)), el('td', { class: 'num' }, fmt.count(x.distinctQueryCount)),
        el('td', { class: 'num' }, fmt.position(x.avgPosition))))))),
    el('p', { class: 'note' }, `${s.total} domains cited in all.`)];
}

const keywordColumns = [
  ['keyword', 'Keyword'], ['variantCount', 'Variants'], ['shareOfVoice', 'Share of voice'], ['mentionRate', 'Mention rate', false],
  ['avgMentionPosition', 'Avg. position'], ['avgSerpPosition', 'Avg. SERP position'], ['trendShareOfVoice', 'SOV trend', false],
  ['lastCheckedAt', 'Last checked'],
];
const keywordPage = 10;

async function keywordsPanel(base, scope, r) {
  const p = r.params;
  const sortBy = p.get('sort') || 'keyword';
  const sortOrder = p.get('order') || 'asc';
  const offset = Number(p.get('offset')) || 0;
  const k = await get(`${base}/keyword-listings`, { ...scope, sortBy, sortOrder, limit: keywordPage, offset });
  if (k.total === 0) return el('p', { class: 'empty' }, 'No keyword matches these filters.');
  const header = ([key, label, sortable = true]) => {
    const active = key === sortBy;
    return el('th', { scope: 'col', 'aria-sort': active ? (sortOrder === 'asc' ? 'ascending' : 'descending') : null },
      sortable ? el('button', { type: 'button', class: 'sort', dataset: { sort: key },
        onclick: () => navigate({ sort: key, order: active && sortOrder === 'asc' ? 'desc' : 'asc', offset: null }) },
      label, el('span', { 'aria-hidden': 'true' }, active ? (sortOrder === 'asc' ? ' ▲' : ' ▼') : ''))
        : label);
  };
  const last = Math.min(offset + k.page.length, k.total);
  return [el('div', { class: 'scroll' }, el('table', { class: 'keywords' },
    el('thead', {}, el('tr', {}, keywordColumns.map(header))),
    el('tbody', {}, k.page.map((row) => el('tr', { dataset: { keyword: row.keyword } },
      el('th', { scope: 'row' }, el('a', { href: link({ ...r, query: row.variantIds[0] }, drillParams(p)) }, row.keyword),
        row.variantIds.slice(1).map((id, i) => [' ', el('a', { href: link({ ...r, query: id }, drillParams(p)), class: 'variant' }, `variant ${i + 2}`)])),
      el('td', { class: 'num' }, row.variantCount),
      el('td', { class: 'num sov' }, fmt.percent(row.shareOfVoice)),
      el('td', { class: 'num' }, fmt.percent(row.mentionRate)),
      el('td', { class: 'num' }, fmt.position(row.avgMentionPosition)),
      el('td', { class: 'num' }, fmt.position(row.avgSerpPosition)),
      el('td', {}, trend(row.trendShareOfVoice)),
      el('td', {}, fmt.time(row.lastCheckedAt))))))),
  el('nav', { class: 'pager', 'aria-label': 'Keyword pages' },
    el('button', { type: 'button', id: 'keywords-prev', disabled: offset === 0, onclick: () => navigate({ offset: String(Math.max(0, offset - keywordPage)) }) }, '← Previous'),
    el('span', { id: 'keywords-range' }, `${offset + 1}–${last} of ${k.total}`),
    el('button', { type: 'button', id: 'keywords-next', disabled: last >= k.total, onclick: () => navigate({ offset: String(offset + keywordPage) }) }, 'Next →'))];
}

async function queryView(r, stale) {
  show(loading('the tracked query'));
  const base = `${v1}/organizations/${r.org}/projects/${r.project}`;
  const [org, project, q] = await Promise.all([get(`${v1}/organizations/${r.org}`), get(base), get(`${base}/tracked-queries/${r.query}`)]);
  if (stale()) return;
  crumbs([{ text: org.name, href: link({ org: r.org }) }, { text: project.name, href: link({ org: r.org, project: r.project }, drillParams(r.params)) },
    { text: q.queryText }]);
  const win = windowOf(r.params);
  show(el('h1', {}, `“${q.queryText}”`),
    el('p', { class: 'sub' }, `${engineName(q.engine)}, ${q.country}, checked ${q.checkFrequency} with ${q.nPasses} pass${q.nPasses === 1 ? '' : 'es'}; last check ${fmt.time(q.lastCheckedAt)}.`),
    filterBar(r.params, null, win),
    section('Over time', () => timeseriesPanel(`${base}/tracked-queries/${r.query}/timeseries`,
      { dateFrom: win.dateFrom, dateTo: win.dateTo }, r.params, project), { id: 'timeseries', wide: true }),
    section('Latest captured answers', () => answersPanel(base, q, project), { id: 'answers', wide: true }));
}

async function answersPanel(base, q, project) {
  if (q.engine === 'google_serp' || q.engine === 'google_shopping') {
    return el('p', { class: 'empty' }, `${engineName(q.engine)} captures result pages, not written answers: see the positions over time above.`);
  }
  const [answers, matches] = await Promise.all([
    get(`${base}/ai-responses`, { trackedQueryId: q.id, limit: Math.max(1, q.nPasses) * 2 }),
    get(`${base}/tracked-queries/${q.id}/mention-matches`, { limit: 100 })]);
  if (answers.total === 0) return el('p', { class: 'empty' }, 'No answer captured yet for this query.');
  const byAnswer = {};
  for (const m of matches.page) (byAnswer[m.aiResponseId] ||= []).push(m);
  return el('div', { class: 'answers' }, answers.page.map((a) => el('article', { class: 'answer', dataset: { answer: a.id } },
    el('h3', {}, `${fmt.time(a.capturedAt)}, pass ${a.passIndex + 1} of ${a.passCount}`),
    el('p', { class: 'legend-marks' }, el('mark', { class: 'own' }, project.name), ' own brand  ', el('mark', { class: 'competitor' }, 'competitor'), ' other brands'),
    el('div', { class: 'text' }, highlight(a.responseText, byAnswer[a.id] || [])),
    a.citedSources.length === 0 ? null : el('p', { class: 'cited' }, 'Cited: ', a.citedSources.map((c, i) => [i ? ', ' : '', c.domain])))));
}

// highlight marks every occurrence of each matched brand name in text.
function highlight(text, matches) {
  const kinds = new Map();
  for (const m of matches) {
    if (m.brandName) kinds.set(m.brandName.toLowerCase(), m.mentionRelation === 'own' ? 'own' : 'competitor');
  }
  if (kinds.size === 0) return [text];
  const names = [...kinds.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(${names.join('|')})`, 'gi');
  return text.split(re).map((part, i) => (i % 2 === 1 ? el('mark', { class: kinds.get(part.toLowerCase()) }, part) : part));
}
