"use strict";
// A seat's own page: its secrets and what it may do now, on top of the board (board.js).
// The options come as the game's notation ("trade sell blue,blue buy red,red"): when
// there are many, the page asks for them word by word. An option that takes a car to a
// space ("at") is picked on the board instead: the part of the board around its spaces,
// the spaces lit; a tap chooses one (it is shown chosen, in words on the confirm button)
// and the confirm button sends exactly that one.

const MAX_BUTTONS = 16;
const MIN_TAP = 44;     // px: a space drawn narrower than a fingertip is framed closer (without the car's own)
const seatPath = location.pathname.replace(/\/+$/, "");
let picked = [];        // the words chosen so far among many options
let chosen = null;      // the action of the space tapped on the board, sent by the confirm button
let sending = false;
let takenAt = null;     // the step an action was just taken at: its buttons are gone until the next post

function words(option) { return option.act.split(" "); }

function matching(options) {
  return options.filter(o => picked.every((w, i) => words(o)[i] === w));
}

function drawOptions(post) {
  const box = document.getElementById("options");
  if (takenAt !== null && post.step === takenAt) { box.replaceChildren(); drawPicker(post, []); return; }
  takenAt = null;
  const onBoard = document.querySelector("#board svg") ? post.options.filter(o => o.at) : [];   // no board: words
  drawPicker(post, onBoard);
  const rest = matching(post.options.filter(o => !onBoard.includes(o)));
  if (rest.length === 0 && picked.length) { picked = []; return drawOptions(post); }
  let depth = picked.length;
  while (rest.length > 1 && rest.every(o => words(o)[depth] === words(rest[0])[depth]) && depth < words(rest[0]).length - 1) depth++;
  const buttons = [];
  if (rest.length <= MAX_BUTTONS) {
    for (const option of rest) buttons.push(button(option.words, () => send(option.act, post.step), "act"));
  } else {
    const groups = new Map();
    for (const o of rest) {
      const group = words(o).slice(0, depth + 1).join(" ");
      groups.set(group, [...(groups.get(group) || []), o]);
    }
    for (const [group, members] of groups) {
      const [only] = members;   // a group of one option is that option, in its own words
      buttons.push(members.length === 1 ? button(only.words, () => send(only.act, post.step), "act")
                                        : button(group + " …", () => { picked = group.split(" "); drawOptions(post); }, "group"));
    }
  }
  if (picked.length) buttons.push(button("back", () => { picked = []; drawOptions(post); }, "back"));
  box.replaceChildren(...buttons);
}

// --- picking a space on the board --------------------------------------------------------

function drawPicker(post, spots) {
  const picker = document.getElementById("picker");
  const holder = document.getElementById("spaces");
  picker.hidden = spots.length === 0;
  if (!spots.some(o => o.act === chosen)) chosen = null;   // a new decision: nothing chosen yet
  if (picker.hidden) { holder.replaceChildren(); return; }
  const svg = document.querySelector("#board svg").cloneNode(true);
  for (const named of svg.querySelectorAll("[id]")) named.removeAttribute("id");   // the board's own ids stay unique
  holder.replaceChildren(svg);   // in the page first: its shapes are measured there
  const layer = svgEl("g", {class: "targets"});
  svg.appendChild(layer);
  const from = spaceOf(svg, spots[0].from);
  const unit = from ? Math.min(from.getBBox().width, from.getBBox().height) : 20;
  const boxes = [];
  for (const option of spots) {
    const target = targetFor(svg, option.at, unit);
    if (!target) continue;
    target.setAttribute("class", "target");
    target.setAttribute("role", "button");
    target.setAttribute("tabindex", "0");
    target.setAttribute("aria-label", option.words);
    target.dataset.act = option.act;
    target.addEventListener("click", () => choose(post, spots, option));
    target.addEventListener("keydown", event => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(post, spots, option); }
    });
    layer.appendChild(target);
    boxes.push(target.getBBox());
  }
  // The car's own space too, unless that shrinks the lit spaces below a finger's size (a long move).
  if (!from || !frame(svg, [...boxes, from.getBBox()], unit, MIN_TAP)) frame(svg, boxes, unit, 0);
  showChosen(post, spots);
}

function spaceOf(svg, id) {
  return [...svg.querySelectorAll("polygon.space")].find(space => space.dataset.id === id);
}

function targetFor(svg, at, unit) {
  if (at !== "finish") {
    const space = spaceOf(svg, at);
    return space ? svgEl("polygon", {points: space.getAttribute("points")}) : null;
  }
  const line = union([...svg.querySelectorAll(".finish-line")].map(l => l.getBBox()));   // thin: widened
  return line && svgEl("rect", {x: line.x - unit / 2, y: line.y - unit / 4, width: line.width + unit,
                                height: line.height + unit / 2, rx: unit / 6});
}

function union(boxes) {
  if (!boxes.length) return null;
  const x = Math.min(...boxes.map(b => b.x)), y = Math.min(...boxes.map(b => b.y));
  return {x, y, width: Math.max(...boxes.map(b => b.x + b.width)) - x,
          height: Math.max(...boxes.map(b => b.y + b.height)) - y};
}

function frame(svg, boxes, unit, least) {
  // Shows the part of the board around ``boxes`` with a space's width of margin, neither a thin strip nor a
  // tower, if a space's ``unit`` is drawn at least ``least`` pixels wide there; whether it did.
  const box = union(boxes);
  if (!box) return false;
  let width = box.width + 2 * unit, height = box.height + 2 * unit;
  width = Math.max(width, height);
  height = Math.max(height, width / 2);
  if (unit * svg.getBoundingClientRect().width / width < least) return false;
  const x = box.x + box.width / 2 - width / 2, y = box.y + box.height / 2 - height / 2;
  svg.setAttribute("viewBox", `${x} ${y} ${width} ${height}`);
  return true;
}

function choose(post, spots, option) {
  chosen = option.act;
  showChosen(post, spots);
}

function showChosen(post, spots) {
  for (const target of document.querySelectorAll("#spaces .target")) {
    target.classList.toggle("chosen", target.dataset.act === chosen);
  }
  const option = spots.find(o => o.act === chosen);
  const confirm = document.getElementById("confirm");
  confirm.textContent = option ? option.words : "tap a lit space to choose it";
  confirm.disabled = !option || sending;
  confirm.onclick = option ? () => send(option.act, post.step) : null;
}

function button(text, onClick, cls) {
  const b = el("button", text, cls);
  b.type = "button";
  b.disabled = sending;
  b.addEventListener("click", onClick);
  return b;
}

async function send(act, step) {
  const answer = document.getElementById("answer");
  sending = true;
  for (const b of document.querySelectorAll("#options button, #confirm")) b.disabled = true;
  answer.textContent = "";
  try {
    const reply = await fetch(seatPath + "/act", {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({act, step}),
    });
    const body = await reply.json().catch(() => ({error: "the table's answer was unreadable"}));
    answer.textContent = reply.ok ? "done" : body.error;
    answer.className = reply.ok ? "answer ok" : "answer refused";
    if (reply.ok) takenAt = step;
  } catch (error) {
    answer.textContent = "the table cannot be reached: try again";
    answer.className = "answer refused";
  } finally {
    sending = false;
    picked = [];
    if (table.lastPost) drawOptions(table.lastPost);
  }
}

function turnLine(post) {
  if (post.over) return "The game is over";
  if (!document.getElementById("picker").hidden) return "Your turn: tap the space where the car ends, then confirm";
  if (post.options.length) return "Your turn: tap what you do";
  if (post.deciding.length) return "Waiting for " + post.deciding.join(", ");
  return "";
}

table.onPost.push(post => {
  document.getElementById("who").textContent = post.name;
  drawOptions(post);
  document.getElementById("turn").textContent = turnLine(post);
  document.body.classList.toggle("my-turn", post.options.length > 0);
  document.getElementById("secrets").replaceChildren(...post.mine.map(line => el("li", line)));
});
table.onClosed.push(() => {   // the time is up: nothing more to do here until the table's next post
  document.getElementById("options").replaceChildren();
  drawPicker(table.lastPost, []);
  document.getElementById("turn").textContent = "";
  document.body.classList.remove("my-turn");
});
table.onGone.push(() => {
  document.getElementById("options").replaceChildren();
  drawPicker(table.lastPost, []);
  document.getElementById("secrets").replaceChildren();
  const answer = document.getElementById("answer");
  answer.textContent = "this seat was handed to another phone: this page plays it no more";
  answer.className = "answer refused";
});

document.addEventListener("DOMContentLoaded", () => follow(seatPath + "/events"));
