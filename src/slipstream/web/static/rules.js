// The rules page: scroll to and mark the paragraph that ?rule= names (a log entry's rule tag).
// The tag is matched as text (never as HTML): the first heading, paragraph, list item or table row
// that contains it, else the longest start of it ("Crossing the finish line, 1)" -> "Crossing the finish line").
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

function find(rule) {
  const blocks = [...document.querySelectorAll("#rules h1, #rules h2, #rules h3, #rules h4, #rules tr, #rules p, #rules li")];
  for (const piece of pieces(rule.toLowerCase())) {
    const hit = blocks.find((el) => el.textContent.toLowerCase().includes(piece));
    if (hit) return hit;
  }
  return null;
}

const rule = new URLSearchParams(location.search).get("rule");
if (rule) {
  const hit = find(rule.slice(0, 200));
  if (hit) {
    hit.classList.add("rule-target");
    hit.id = "rule-target";
    hit.scrollIntoView({ block: "center" });
  }
}
