// warden console: lists the calls waiting for an operator, live, and
// answers them. Everything shown is set as text, never as HTML.
"use strict";

let csrf = "";
let takeoverAllowed = false;

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  for (const c of children) e.append(c);
  return e;
}

// visible shows what an agent wrote as text to be read, never to act on the
// page: C0 and C1 controls but newline, DEL, and invisible format
// characters (bidi overrides and isolates that reorder what follows,
// zero-width and tag characters, line separators) become escapes such as
// \u202e, and a run of more than 16 blanks is counted, not shown, as
// internal/display writes them for the terminal.
function visible(s) {
  return String(s).replace(/\p{Zs}{17,}/gu, (m) => " …[" + [...m].length + " blanks]… ").replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]|\p{Cf}/gu, (c) => {
    const n = c.codePointAt(0);
    if (n < 0x100) return "\\x" + n.toString(16).padStart(2, "0");
    if (n <= 0xffff) return "\\u" + n.toString(16).padStart(4, "0");
    return "\\U" + n.toString(16).padStart(8, "0");
  });
}

function field(dl, name, value) {
  dl.append(el("dt", { textContent: name }), el("dd", { textContent: visible(value) }));
}

async function answer(p, approve, reason, status) {
  status.textContent = approve ? "approving…" : "denying…";
  const res = await fetch("/api/approvals/" + encodeURIComponent(p.id), {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Warden-CSRF": csrf },
    body: JSON.stringify({ approve: approve, reason: reason, digest: p.digest }),
  });
  const body = await res.json().catch(() => ({}));
  status.textContent = res.ok ? body.verdict : (body.error || res.statusText);
}

function render(list) {
  const root = document.getElementById("list");
  root.replaceChildren();
  document.getElementById("count").textContent = "(" + list.length + ")";
  document.getElementById("empty").hidden = list.length > 0;
  for (const p of list) {
    const card = el("article", { className: "approval tier" + p.tier, id: "approval-" + p.id });
    card.append(el("h3", { textContent: visible(p.tool + " on " + p.host + " (tier " + p.tier + ")") }));
    const dl = el("dl");
    field(dl, "why", p.reason);
    field(dl, "identity", p.identity);
    if (p.client) field(dl, "client", p.client);
    field(dl, "expires", new Date(p.expires).toLocaleString());
    field(dl, "digest", p.digest);
    field(dl, "id", p.id);
    card.append(dl);
    card.append(el("pre", { textContent: visible(JSON.stringify(p.args, null, 2)) }));
    const reason = el("input", { className: "reason", placeholder: "reason (optional)", maxLength: 1024 });
    const status = el("span", { className: "answer-status" });
    const yes = el("button", { className: "approve", textContent: "Approve", type: "button" });
    const no = el("button", { className: "deny", textContent: "Deny", type: "button" });
    yes.addEventListener("click", () => answer(p, true, reason.value, status));
    no.addEventListener("click", () => answer(p, false, reason.value, status));
    card.append(reason, " ", yes, " ", no, " ", status);
    root.append(card);
  }
}

async function start() {
  const res = await fetch("/api/session");
  if (res.status === 401) {
    document.getElementById("login").hidden = false;
    return;
  }
  if (!res.ok) {
    document.body.append(el("p", { textContent: "console: " + res.statusText }));
    return;
  }
  const me = await res.json();
  csrf = me.csrf;
  takeoverAllowed = me.takeover === true;
  document.getElementById("pending").hidden = false;
  document.getElementById("logout").hidden = false;
  const status = document.getElementById("status");
  const events = new EventSource("/api/events");
  events.addEventListener("approvals", (e) => {
    status.textContent = "live";
    render(JSON.parse(e.data));
  });
  events.addEventListener("error", () => { status.textContent = "reconnecting…"; });
}

let watching = null;

// watch follows one session's output, read-only.
function watch(s) {
  if (watching) watching.close();
  const term = document.getElementById("term");
  const title = document.getElementById("watching");
  term.textContent = "";
  term.hidden = false;
  title.hidden = false;
  title.textContent = visible("Watching " + s.id + " (" + (s.argv || []).join(" ") + ", " + s.owner + ")");
  setupTakeover(s);
  watching = new EventSource("/api/sessions/" + encodeURIComponent(s.id) + "/watch");
  watching.addEventListener("output", (e) => {
    term.textContent += JSON.parse(e.data);
    term.scrollTop = term.scrollHeight;
  });
  watching.addEventListener("end", () => {
    title.textContent += " — ended";
    watching.close();
  });
}

// post sends a state change with the session's CSRF token and returns
// the answer's JSON, or throws its error.
async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Warden-CSRF": csrf },
    body: JSON.stringify(body),
  });
  const out = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(out.error || res.statusText);
  return out;
}

let takenOver = null; // the session this login types into

// setupTakeover offers to take session s over, when console.takeover is
// on: typed lines go to its input, and every one is audited.
function setupTakeover(s) {
  const box = document.getElementById("takeover");
  const toggle = document.getElementById("takeover-toggle");
  const form = document.getElementById("takeover-form");
  const input = document.getElementById("takeover-input");
  const status = document.getElementById("takeover-status");
  box.hidden = !takeoverAllowed;
  if (!takeoverAllowed) return;
  const base = "/api/sessions/" + encodeURIComponent(s.id);
  const show = () => {
    const mine = takenOver === s.id;
    toggle.textContent = mine ? "Release" : "Take over";
    form.hidden = !mine;
    status.textContent = mine ? "you are typing into this session (audited)" : "";
  };
  toggle.onclick = async () => {
    const on = takenOver !== s.id;
    try {
      await post(base + "/takeover", { on: on });
      takenOver = on ? s.id : null;
      show();
      if (on) input.focus();
    } catch (e) { status.textContent = e.message; }
  };
  form.onsubmit = async (e) => {
    e.preventDefault();
    try {
      await post(base + "/input", { data: input.value + "\n" });
      input.value = "";
    } catch (err) { status.textContent = err.message; }
  };
  show();
}

async function loadSessions() {
  const res = await fetch("/api/sessions");
  if (!res.ok) return;
  const list = await res.json();
  document.getElementById("sessions").hidden = false;
  document.getElementById("no-sessions").hidden = list.length > 0;
  const ul = document.getElementById("session-list");
  ul.replaceChildren();
  for (const s of list) {
    const b = el("button", { type: "button", className: "watch", id: "watch-" + s.id, textContent: "Watch" });
    b.addEventListener("click", () => watch(s));
    ul.append(el("li", {}, visible(s.id + " — " + (s.argv || []).join(" ") + " (" + s.owner + ") "), b));
  }
}

// follow the live feed of finished calls, newest first, at most 100 rows.
function followCalls() {
  document.getElementById("calls").hidden = false;
  const body = document.getElementById("call-list");
  const feed = new EventSource("/api/calls");
  feed.addEventListener("call", (e) => {
    const c = JSON.parse(e.data);
    const tr = el("tr", { className: "call" });
    for (const v of [new Date(c.time).toLocaleTimeString(), c.tool, c.host, c.tier, c.decision, c.status, c.duration_ms, c.identity]) {
      tr.append(el("td", { textContent: visible(v) }));
    }
    body.prepend(tr);
    while (body.children.length > 100) body.lastChild.remove();
  });
}

// searchAudit shows one page of matching records, newest first; "Older
// records" asks for the page before it (the whole log is searched).
async function searchAudit(form, before) {
  const params = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (v) params.set(k, v);
  if (before) params.set("before", before);
  const res = await fetch("/api/audit?" + params);
  const body = document.getElementById("audit-list");
  const older = document.getElementById("audit-older");
  body.replaceChildren();
  older.hidden = true;
  if (!res.ok) {
    const e = await res.json().catch(() => ({}));
    document.getElementById("chain").textContent = e.error || res.statusText;
    return;
  }
  for (const r of (await res.json()).reverse()) {
    const tr = el("tr", { className: "record" });
    for (const v of [new Date(r.ts).toLocaleString(), r.seq, r.tool, r.host || "", r.tier, r.decision, r.status, r.identity, r.args ? JSON.stringify(r.args) : ""]) {
      tr.append(el("td", { textContent: visible(v) }));
    }
    body.append(tr);
  }
  const next = res.headers.get("X-Warden-Before");
  if (next) {
    older.hidden = false;
    older.onclick = () => searchAudit(form, next);
  }
}

async function verifyAudit() {
  const out = document.getElementById("chain");
  out.textContent = "verifying…";
  const res = await fetch("/api/audit/verify");
  const s = await res.json().catch(() => ({}));
  out.textContent = !res.ok ? (s.error || res.statusText)
    : s.intact ? "chain intact: " + s.records + " records, last seq " + s.last_seq
    : "CHAIN BROKEN: " + s.problem;
}

function setupAudit() {
  document.getElementById("audit").hidden = false;
  const form = document.getElementById("audit-search");
  form.addEventListener("submit", (e) => { e.preventDefault(); searchAudit(form); });
  document.getElementById("audit-verify").addEventListener("click", verifyAudit);
  searchAudit(form);
}

let player = null;

// replay plays one recording with asciinema-player.
function replay(r) {
  const box = document.getElementById("player");
  if (player) player.dispose();
  box.replaceChildren();
  player = AsciinemaPlayer.create("/api/recordings/" + encodeURIComponent(r.id), box, { autoPlay: true, speed: 4, idleTimeLimit: 1 });
}

async function loadRecordings() {
  const res = await fetch("/api/recordings");
  if (!res.ok) return;
  const list = await res.json();
  document.getElementById("recordings").hidden = false;
  const ul = document.getElementById("recording-list");
  ul.replaceChildren();
  for (const r of list.reverse()) {
    const b = el("button", { type: "button", className: "replay", id: "replay-" + r.id, textContent: "Replay" });
    b.addEventListener("click", () => replay(r));
    ul.append(el("li", {}, new Date(r.started).toLocaleString() + " — " + (r.command || r.id) + " (" + r.bytes + " bytes) ", b));
  }
}

document.addEventListener("DOMContentLoaded", () => start().then(() => {
  if (csrf) {
    loadRecordings();
    loadSessions();
    setupAudit();
    followCalls();
  }
}));
