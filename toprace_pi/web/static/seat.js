"use strict";
// A seat's own page: its secrets and what it may do now, on top of the board (board.js).
// The options come as the game's notation ("trade sell blue,blue buy red,red"): when
// there are many, the page asks for them word by word.

const MAX_BUTTONS = 16;
const seatPath = location.pathname.replace(/\/+$/, "");
let picked = [];        // the words chosen so far among many options
let sending = false;
let takenAt = null;     // the step an action was just taken at: its buttons are gone until the next post

function words(option) { return option.act.split(" "); }

function matching(options) {
  return options.filter(o => picked.every((w, i) => words(o)[i] === w));
}

function drawOptions(post) {
  const box = document.getElementById("options");
  if (takenAt !== null && post.step === takenAt) { box.replaceChildren(); return; }
  takenAt = null;
  const rest = matching(post.options);
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
  for (const b of document.querySelectorAll("#options button")) b.disabled = true;
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
  if (post.options.length) return "Your turn: tap what you do";
  if (post.deciding.length) return "Waiting for " + post.deciding.join(", ");
  return "";
}

table.onPost.push(post => {
  document.getElementById("who").textContent = post.name;
  document.getElementById("turn").textContent = turnLine(post);
  document.body.classList.toggle("my-turn", post.options.length > 0);
  document.getElementById("secrets").replaceChildren(...post.mine.map(line => el("li", line)));
  drawOptions(post);
});
table.onGone.push(() => {
  document.getElementById("options").replaceChildren();
  document.getElementById("secrets").replaceChildren();
  const answer = document.getElementById("answer");
  answer.textContent = "this seat was handed to another phone: this page plays it no more";
  answer.className = "answer refused";
});

document.addEventListener("DOMContentLoaded", () => follow(seatPath + "/events"));
