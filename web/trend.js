"use strict";
// Draws the trend chart of a `drain history trend --html` page from its data block: one
// dot per run at its commit, the commits' medians joined by a line, and a tooltip with the
// commit, date, run and value on hover or keyboard focus.
(function () {
  const data = JSON.parse(document.getElementById("drain-data").textContent);
  const figure = document.getElementById("trend-chart");
  const svgNS = "http://www.w3.org/2000/svg";
  const width = 960, height = 360, left = 84, right = 24, top = 16, bottom = 48;

  function element(name, attributes, parent) {
    const node = document.createElementNS(svgNS, name);
    for (const key of Object.keys(attributes)) node.setAttribute(key, String(attributes[key]));
    if (parent) parent.appendChild(node);
    return node;
  }

  const values = data.commits.flatMap(function (commit) { return commit.runs.map(function (run) { return run.value; }); });
  if (values.length === 0) {
    figure.textContent = "No runs of this metric.";
    return;
  }
  let low = Math.min.apply(null, values), high = Math.max.apply(null, values);
  if (low > 0 && low < (high - low)) low = 0;
  if (high === low) { high += Math.abs(high) * 0.1 || 1; low -= Math.abs(low) * 0.1 || 1; }
  const span = high - low;
  low -= span * 0.05;
  high += span * 0.05;

  const count = data.commits.length;
  const x = function (index) { return count === 1 ? (left + width - right) / 2 : left + index * (width - left - right) / (count - 1); };
  const y = function (value) { return top + (high - value) * (height - top - bottom) / (high - low); };

  const svg = element("svg", { viewBox: "0 0 " + width + " " + height, role: "img" });
  const title = element("title", {}, svg);
  title.textContent = data.metric + " over " + count + " commits";
  const axis = element("g", { class: "axis" }, svg);
  const ticks = 5;
  for (let step = 0; step <= ticks; step += 1) {
    const value = low + (high - low) * step / ticks;
    element("line", { class: "grid", x1: left, x2: width - right, y1: y(value), y2: y(value) }, axis);
    const label = element("text", { x: left - 8, y: y(value) + 4, "text-anchor": "end" }, axis);
    label.textContent = formatTick(value);
  }
  const every = Math.max(1, Math.ceil(count / 12));
  data.commits.forEach(function (commit, index) {
    if (index % every !== 0 && index !== count - 1) return;
    const label = element("text", { x: x(index), y: height - bottom + 18, "text-anchor": "middle" }, axis);
    label.textContent = commit.commit ? commit.commit.slice(0, 7) : "-";
  });

  const medians = data.commits.map(function (commit, index) { return x(index) + "," + y(commit.median); });
  element("polyline", { class: "median", points: medians.join(" ") }, svg);

  const tooltip = document.createElement("div");
  tooltip.className = "tooltip";
  tooltip.hidden = true;
  figure.appendChild(svg);
  figure.appendChild(tooltip);

  data.commits.forEach(function (commit, index) {
    commit.runs.forEach(function (run) {
      const dot = element("circle", {
        class: "point", cx: x(index), cy: y(run.value), r: 5, tabindex: 0,
        "data-run": run.run, "data-commit": commit.commit,
        "aria-label": "run " + run.run + ", commit " + (commit.commit || "-").slice(0, 12) + ", " + run.recorded_at + ": " + run.label,
      }, svg);
      const show = function () {
        tooltip.textContent = "commit " + (commit.commit || "-").slice(0, 12) + " · " + run.recorded_at.replace("T", " ").slice(0, 19) +
          " UTC · run " + run.run + " · " + run.label + " (median " + commit.median_label + ")";
        tooltip.hidden = false;
        const box = figure.getBoundingClientRect(), point = dot.getBoundingClientRect();
        tooltip.style.left = Math.max(0, Math.min(point.left - box.left + 10, box.width - tooltip.offsetWidth - 4)) + "px";
        tooltip.style.top = Math.max(0, point.top - box.top - 34) + "px";
      };
      const hide = function () { tooltip.hidden = true; };
      dot.addEventListener("mouseenter", show);
      dot.addEventListener("focus", show);
      dot.addEventListener("mouseleave", hide);
      dot.addEventListener("blur", hide);
    });
  });

  function formatTick(value) {
    const unit = data.unit;
    if (unit === "B") {
      const scales = [[1e9, "GB"], [1e6, "MB"], [1e3, "KB"]];
      for (const pair of scales) if (Math.abs(value) >= pair[0]) return (value / pair[0]).toPrecision(3) + " " + pair[1];
      return value.toPrecision(3) + " B";
    }
    const text = Math.abs(value) >= 1e5 || (value !== 0 && Math.abs(value) < 1e-3) ? value.toExponential(2) : String(Number(value.toPrecision(3)));
    return unit && unit !== "count" && unit !== "score" && unit !== "ratio" ? text + " " + unit : text;
  }
})();
