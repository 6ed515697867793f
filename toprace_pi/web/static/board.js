"use strict";
// The spectator board and the public half of a seat's page: follows a feed of posts
// (server-sent events) and draws the board, its pieces, the prompt, standings and news.
// The same page is the table's own board at /table/TOKEN: its feed adds the seats' join
// codes while a joining step is open; the board for everyone names the seats open only.
// Text from the table is always set as text, never as HTML. The news reads as it happened:
// oldest first, the latest at the bottom. A decision that closes by itself (a claim
// window) is counted down here, from the seconds left the post came with; at zero its
// prompt leaves the page at once, before the table's next post.

const SVG = "http://www.w3.org/2000/svg";

const table = {
  boardKey: null,
  lastPost: null,
  onPost: [],   // more drawing for each post (the seat's page adds its own)
  onGone: [],
  onClosed: [],   // more clearing when a decision's time is up
  closesAt: null,   // when the decision shown closes by itself (this page's clock, ms), else null
  ticking: null,
  newsAtEnd: true,   // the news is scrolled to its latest line (else the reader scrolled up to read)
};

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function showBoard(key) {
  if (key === table.boardKey) return;
  const reply = await fetch("/board.svg?k=" + encodeURIComponent(key));
  if (!reply.ok) return;
  const holder = document.getElementById("board");
  const doc = new DOMParser().parseFromString(await reply.text(), "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.appendChild(svgEl("g", {id: "pieces"}));
  holder.replaceChildren(document.importNode(svg, true));
  table.boardKey = key;
}

function piece(p) {   // as toprace_pi.render.pieces.piece_svg draws it
  const g = svgEl("g", {class: "piece" + (p.faded ? " faded" : "")});
  if (p.faded) g.setAttribute("opacity", "0.55");
  g.appendChild(svgEl("title", {}, p.title));
  g.appendChild(svgEl("circle", {cx: p.x, cy: p.y, r: p.r, fill: p.colour, stroke: p.ink,
                                 "stroke-width": 0.15 * p.r}));
  g.appendChild(svgEl("text", {x: p.x, y: p.y + 0.38 * p.r, "font-size": 1.1 * p.r, "font-weight": "bold",
                               "text-anchor": "middle", fill: p.ink}, p.label));
  return g;
}

function drawPieces(pieces) {
  const layer = document.getElementById("pieces");
  if (layer) layer.replaceChildren(...pieces.map(piece));
}

function drawStandings(standings) {
  const head = document.querySelector("#standings thead");
  const body = document.querySelector("#standings tbody");
  const top = el("tr");
  top.appendChild(el("th", ""));
  for (const name of standings.columns) top.appendChild(el("th", name));
  head.replaceChildren(top);
  body.replaceChildren(...standings.rows.map(row => {
    const tr = el("tr");
    const swatch = el("td", "", "swatch");
    swatch.style.background = row.colour;
    tr.appendChild(swatch);
    for (const cell of row.cells) tr.appendChild(el("td", cell));
    return tr;
  }));
}

function drawJoining(post) {
  const box = document.getElementById("joining");
  if (!box) return;
  box.hidden = !post.joining || post.joining.length === 0;
  if (box.hidden) return;
  const codes = post.codes || [];   // the table's own board: a QR code for each seat open
  document.getElementById("joining-how").textContent = codes.length ? "Take a seat: scan your code"
    : "Seats open to a new phone: scan your code on the table's board";
  document.getElementById("codes").replaceChildren(...(codes.length ? codes : post.joining).map(seat => {
    const card = el("figure", undefined, "code");
    if (seat.qr) {
      const doc = new DOMParser().parseFromString(seat.qr, "image/svg+xml");
      card.appendChild(document.importNode(doc.documentElement, true));
    }
    const caption = el("figcaption", seat.name);
    caption.style.borderColor = seat.colour;
    card.appendChild(caption);
    card.dataset.seat = seat.seat;
    return card;
  }));
}

function drawNews(news) {
  const list = document.getElementById("news");
  list.replaceChildren(...news.map(line => el("li", line)));
  if (table.newsAtEnd) list.scrollTop = list.scrollHeight;
}

function followNews() {   // the latest line stays in sight as lines come and as the screen turns
  const list = document.getElementById("news");
  list.addEventListener("scroll", () => {
    table.newsAtEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  });
  new ResizeObserver(() => { if (table.newsAtEnd) list.scrollTop = list.scrollHeight; }).observe(list);
}

function countDown(post) {
  clearInterval(table.ticking);
  table.ticking = null;
  const open = typeof post.closes_in === "number" && !post.over;
  table.closesAt = open ? performance.now() + 1000 * post.closes_in : null;
  document.getElementById("clock").hidden = !open;
  if (open) {
    tick();
    table.ticking = setInterval(tick, 100);
  }
}

function tick() {
  const left = (table.closesAt - performance.now()) / 1000;
  if (left > 0) {
    document.getElementById("clock").textContent = `${Math.ceil(left)} s left`;
    return;
  }
  clearInterval(table.ticking);   // the time is up: the prompt goes now, the table's post follows
  table.ticking = table.closesAt = null;
  document.getElementById("clock").hidden = true;
  document.getElementById("prompt").textContent = "";
  for (const closed of table.onClosed) closed();
}

async function draw(post) {
  table.lastPost = post;
  document.getElementById("title").textContent = post.title;
  document.title = post.title;
  await showBoard(post.board);
  drawPieces(post.pieces);
  document.getElementById("prompt").textContent = post.prompt;
  drawStandings(post.standings);
  drawNews(post.news);
  drawJoining(post);
  for (const more of table.onPost) more(post);
  countDown(post);
}

function follow(url) {
  const status = document.getElementById("status");
  const feed = new EventSource(url);
  let drawing = Promise.resolve();
  feed.onopen = () => { status.textContent = "live"; status.className = "status live"; };
  feed.onerror = () => { status.textContent = "reconnecting"; status.className = "status lost"; };
  feed.onmessage = event => {
    const post = JSON.parse(event.data);
    post.seq = Number(event.lastEventId.split(".").pop());   // "epoch.seq": the epoch changes when the table restarts
    drawing = drawing.then(() => draw(post));   // in order, one after another
  };
  feed.addEventListener("gone", () => {
    feed.close();
    status.textContent = "handed over"; status.className = "status lost";
    for (const gone of table.onGone) gone();
  });
  return feed;
}

function boardFeed() {   // the table's own board follows its own feed, the board for everyone /events
  const path = location.pathname.replace(/\/+$/, "");
  return path.startsWith("/table/") ? path + "/events" : "/events";
}

document.addEventListener("DOMContentLoaded", () => {
  followNews();
  if (document.body.classList.contains("spectator")) follow(boardFeed());
});
