/* global process, console, fetch -- Node 18+ has them: ESLint is told so here, for this plain script. */
// Agency Desk from Node (18+), with fetch only (README: "Writing a script").
//
//   export AGENCY_DESK_URL=$(agency-desk url)
//   export AGENCY_DESK_TOKEN=adk_pat_...     # an API token with the read scope
//   node examples/list-locations.mjs "Bluebird Coffee"
//
// Prints the client's locations with their health, a page at a time.
const url = process.env.AGENCY_DESK_URL.replace(/\/$/, '');
const headers = { Authorization: `Bearer ${process.env.AGENCY_DESK_TOKEN}` };
const PAGE = Number(process.env.AGENCY_DESK_PAGE_SIZE ?? 500);

async function api(path) {
  const response = await fetch(url + path, { headers });
  const body = await response.json();
  // Every error is {statusCode, error, message, details?}.
  if (!response.ok) throw new Error(`${response.status}: ${body.message}`);
  return { body, total: Number(response.headers.get('x-total-count')) };
}

const name = process.argv[2];
const { body: clients } = await api(`/api/clients?name=${encodeURIComponent(name)}`);
if (clients.length === 0) {
  console.error(`No client named ${name}`);
  process.exit(1);
}
for (let offset = 0; ;) {
  const { body: page, total } = await api(`/api/locations?clientId=${clients[0].id}&limit=${PAGE}&offset=${offset}`);
  for (const location of page) console.log(`${location.name}\t${location.health_status}\t${location.health_score}`);
  offset += page.length;
  if (page.length === 0 || offset >= total) break;
}
