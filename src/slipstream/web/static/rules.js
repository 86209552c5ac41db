// The rules page: scroll to and mark the paragraph that ?rule= names (a log entry's rule tag).
// The tag is matched as text (never as HTML), the whole tag first, then ever shorter starts of it
// ("Crossing the finish line, 1)" -> "Crossing the finish line"). For each, the rule's prose comes
// first: a heading, then a paragraph or list item naming it (two words or more, as whole words, in the
// tag's own case: a section's name, not words of a sentence); a row of a table (the coverage table lists
// every rule) only when no prose names it. A one-word tag ("Round", "Drive") names a rule only as a
// heading of its own or as the word that opens a paragraph or list item, followed by a colon or a full
// stop (a definition: "Drive: move ..."); anywhere else it is a word of a sentence, and only a table row
// is searched for it. The page's title (h1) names the game, never a rule. The rules in full come after the
// player's "how to play" and are folded: they are searched first, and unfolded to show the rule.
import { boxTables } from "/static/common.js";

function pieces(rule) {
  const out = [rule];
  let cut = rule;
  while (true) {
    const i = Math.max(cut.lastIndexOf(","), cut.lastIndexOf(")"), cut.lastIndexOf(" "));
    if (i <= 2) break;
    cut = cut.slice(0, i).trim();
    out.push(cut);
  }
  return out;
}

// The piece as literal text in a regular expression.
function escape(piece) {
  return piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// A test for the piece as whole words of a text, in the piece's own case (or in any case: a table row's
// "RIU-A10" does not name "RIU-A1").
function named(piece, flags = "") {
  return new RegExp(`(^|[^\\w])${escape(piece)}($|[^\\w])`, flags);
}

// A test for a one-word piece: a heading that is that word, or a text that opens with it and a colon or
// a full stop (emphasis around the word is already gone from textContent).
function defines(piece) {
  return new RegExp(`^${escape(piece)}([:.]|$)`);
}

function find(rule, root) {
  const outside = (el) => !el.closest("table") && !el.closest("summary");
  const headings = [...root.querySelectorAll("h2, h3, h4, h5")].filter(outside);
  const prose = [...root.querySelectorAll("p, li")].filter(outside);
  const rows = [...root.querySelectorAll("tr")];
  for (const piece of pieces(rule)) {
    // one word ("Drive", "The") names no rule in a sentence: only a table row's text is searched for it
    const single = piece.split(/\s+/).length === 1;
    const words = single ? null : named(piece);
    const word = single ? defines(piece) : null;
    const inRow = named(piece, "i");
    const hit = (words && (headings.find((el) => words.test(el.textContent)) || prose.find((el) => words.test(el.textContent))))
      || (word && (headings.find((el) => el.textContent.trim() === piece)
                   || prose.find((el) => word.test(el.textContent.trim()))))
      || rows.find((el) => inRow.test(el.textContent));
    if (hit) return hit;
  }
  return null;
}

boxTables(document.getElementById("rules")); // a wide table scrolls in its own box (a phone)

const rule = new URLSearchParams(location.search).get("rule");
if (rule) {
  // the rules in full name the rules as the log's tags do; the player's guide above them only if they do not
  const reference = document.getElementById("reference-text");
  const guide = document.getElementById("how-to-play");
  const hit = (reference && find(rule.slice(0, 200), reference)) || (guide && find(rule.slice(0, 200), guide));
  if (hit) {
    const folded = hit.closest("details");
    if (folded) folded.open = true;
    hit.classList.add("rule-target");
    hit.id = "rule-target";
    hit.scrollIntoView({ block: "center" });
  }
}
