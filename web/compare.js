/*
 * The comparison page's script (`drain compare --html`). It reads the comparison from the
 * `drain-data` JSON block and inserts data only with textContent and setAttribute.
 *
 * Hooks, stable for tests and tools:
 *   #timelines                     the stacked timelines
 *   .timeline[data-run=I]          run I's timeline (focusable; keys + = − _ ← → 0); carries
 *                                  data-view-start / data-view-end, its visible aligned time (s)
 *   .timeline.difference[data-run=I]  run I's energy minus the reference's, per bin
 *   .selection                     the range being dragged; .cursor the hover line
 *   #zoom-reset                    shows the whole time range again
 *   #view-range                    the visible range as text
 *   #cursor-readout                the values at the hover cursor: li[data-run=I], one per run
 *   #threshold                     the highlight threshold (percent of the reference)
 *   table.sortable th              a click (or Enter) sorts by the column
 *   tr.over, .card-runs li.over    a change beyond the threshold ([data-pct] or [data-always])
 */
(function () {
  "use strict";
  var SVG_NS = "http://www.w3.org/2000/svg";
  var payload = JSON.parse(document.getElementById("drain-data").textContent);
  var comparison = payload.comparison;
  var timeline = comparison.timeline;
  var reference = comparison.reference;
  var binS = timeline.bin_s;
  var container = document.getElementById("timelines");
  var readout = document.getElementById("cursor-readout");
  var rangeText = document.getElementById("view-range");
  var MARGIN = { left: 56, right: 12 };
  var full = fullRange();
  var view = full.slice();
  var cursor = null;
  var drag = null;
  var charts = [];

  function svg(name, attributes, parent) {
    var element = document.createElementNS(SVG_NS, name);
    Object.keys(attributes).forEach(function (key) { element.setAttribute(key, String(attributes[key])); });
    if (parent) { parent.appendChild(element); }
    return element;
  }
  function text(parent, x, y, content, attributes) {
    var element = svg("text", Object.assign({ x: x, y: y }, attributes || {}), parent);
    element.textContent = content;
    return element;
  }
  function element(name, className, parent, content) {
    var created = document.createElement(name);
    if (className) { created.className = className; }
    if (content !== undefined) { created.textContent = content; }
    if (parent) { parent.appendChild(created); }
    return created;
  }
  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }

  function fixed(value, digits) { return Number(value).toFixed(digits); }
  function joules(value) {
    var size = Math.abs(value);
    if (size >= 1 || size === 0) { return fixed(value, 2) + " J"; }
    if (size >= 0.001) { return fixed(value * 1e3, 1) + " mJ"; }
    return fixed(value * 1e6, 1) + " \u00b5J";
  }
  function signedJoules(value) { return (value > 0 ? "+" : "") + joules(value); }
  function seconds(value, step) {
    var digits = step >= 1 ? 0 : Math.min(3, Math.ceil(-Math.log10(step)));
    if (step >= 3600) { return fixed(value / 3600, 1) + " h"; }
    if (step >= 60) { return fixed(value / 60, 1) + " min"; }
    return fixed(value, digits) + " s";
  }
  function tickStep(span, count) {
    var raw = span / count;
    var power = Math.pow(10, Math.floor(Math.log10(raw)));
    var factor = [1, 2, 5, 10].filter(function (candidate) { return raw <= candidate * power; })[0];
    return factor * power;
  }

  function fullRange() {
    var start = Infinity;
    var end = -Infinity;
    timeline.runs.forEach(function (run) {
      start = Math.min(start, run.offset_s);
      end = Math.max(end, run.offset_s + run.energy_j.length * binS);
    });
    return isFinite(start) && end > start ? [start, end] : [0, Math.max(binS, 1)];
  }
  function total(row) { return (row || []).reduce(function (sum, value) { return sum + value; }, 0); }
  function binAt(run, time) {
    var index = Math.floor((time - run.offset_s) / binS);
    return index >= 0 && index < run.energy_j.length ? index : -1;
  }

  /* Bins grouped so that a group is at least two pixels wide: the same size for every run,
     so that their bars and the shared energy scale stay comparable. */
  function groupSize(plotWidth) {
    return Math.max(1, Math.ceil((view[1] - view[0]) / binS / Math.max(1, plotWidth / 2)));
  }
  function groups(series, offset, size, sum) {
    var first = Math.max(0, Math.floor((view[0] - offset) / binS / size) * size);
    var last = Math.min(series.length, Math.ceil((view[1] - offset) / binS));
    var result = [];
    for (var start = first; start < last; start += size) {
      var end = Math.min(series.length, start + size);
      result.push({ start: offset + start * binS, end: offset + end * binS, value: sum(series.slice(start, end)) });
    }
    return result;
  }
  function categorySums(rows) {
    return timeline.categories.map(function (name, category) {
      return rows.reduce(function (sum, row) { return sum + (row[category] || 0); }, 0);
    });
  }
  function plainSum(values) { return values.reduce(function (sum, value) { return sum + value; }, 0); }

  function scaleX(plotWidth) {
    return function (time) { return MARGIN.left + (time - view[0]) / (view[1] - view[0]) * plotWidth; };
  }
  function timeAt(chart, clientX) {
    var box = chart.root.getBoundingClientRect();
    var position = (clientX - box.left) * (chart.width / box.width);
    var fraction = Math.max(0, Math.min(1, (position - MARGIN.left) / chart.plotWidth));
    return view[0] + fraction * (view[1] - view[0]);
  }

  function drawAxis(root, x, top, bottom, plotWidth) {
    var step = tickStep(view[1] - view[0], Math.max(2, Math.floor(plotWidth / 90)));
    for (var tick = Math.ceil(view[0] / step) * step; tick <= view[1] + step * 1e-6; tick += step) {
      svg("line", { x1: x(tick), x2: x(tick), y1: top, y2: bottom, stroke: "#e2e6ec" }, root);
      text(root, x(tick), bottom + 12, seconds(Math.abs(tick) < step * 1e-6 ? 0 : tick, step), { "text-anchor": "middle", "class": "axis" });
    }
  }
  /* Marks are labelled on the top line and lifecycle changes on the next, so that a mark at a
     state change stays readable. */
  function drawEvents(root, x, events, labelY, bottom, kind) {
    events.forEach(function (event) {
      if (event.time_s < view[0] || event.time_s > view[1]) { return; }
      var position = x(event.time_s);
      svg("line", { x1: position, x2: position, y1: labelY - 9, y2: bottom, "class": kind }, root);
      text(root, position + 3, labelY, event.name, { "class": kind + "-label" });
    });
  }
  function drawRadio(root, x, run, top, plotWidth) {
    var links = [];
    run.radio.forEach(function (span) { if (links.indexOf(span.link) < 0) { links.push(span.link); } });
    links.forEach(function (link, row) {
      var y = top + row * 12;
      text(root, MARGIN.left - 4, y + 9, link, { "text-anchor": "end", "class": "axis" });
      svg("rect", { x: MARGIN.left, y: y, width: plotWidth, height: 9, fill: "#f1f3f6" }, root);
      run.radio.forEach(function (span) {
        if (span.link !== link || span.end_s < view[0] || span.start_s > view[1]) { return; }
        var left = x(Math.max(view[0], span.start_s));
        var right = x(Math.min(view[1], span.end_s));
        var segment = svg("rect", { x: left, y: y, width: Math.max(1, right - left), height: 9, fill: payload.radio_colors[span.state] || "#bab0ac" }, root);
        svg("title", {}, segment).textContent = span.link + " " + span.state;
      });
    });
    return links.length * 12;
  }

  function chartFrame(host, index, height, label) {
    host.setAttribute("data-view-start", fixed(view[0], 3));
    host.setAttribute("data-view-end", fixed(view[1], 3));
    var width = Math.max(300, Math.floor(host.clientWidth || 900));
    var plotWidth = width - MARGIN.left - MARGIN.right;
    var root = svg("svg", { viewBox: "0 0 " + width + " " + height, width: width, height: height, role: "img", "aria-label": label }, host);
    var chart = { host: host, root: root, width: width, plotWidth: plotWidth, height: height, run: index };
    charts.push(chart);
    return chart;
  }

  function drawRun(host, index, size, energyMax) {
    var run = timeline.runs[index];
    var links = [];
    run.radio.forEach(function (span) { if (links.indexOf(span.link) < 0) { links.push(span.link); } });
    var plotTop = 24;
    var plotHeight = 84;
    var chart = chartFrame(host, index, plotTop + plotHeight + 16 + links.length * 12 + 4, "Energy over aligned time of " + comparison.runs[index].label);
    var x = scaleX(chart.plotWidth);
    var root = chart.root;
    var bottom = plotTop + plotHeight;
    function y(value) { return bottom - value / energyMax * plotHeight; }
    drawAxis(root, x, plotTop, bottom, chart.plotWidth);
    text(root, MARGIN.left - 4, plotTop + 8, joules(energyMax), { "text-anchor": "end", "class": "axis" });
    groups(run.energy_j, run.offset_s, size, categorySums).forEach(function (group) {
      var left = Math.max(MARGIN.left, x(group.start));
      var barWidth = Math.max(1, Math.min(MARGIN.left + chart.plotWidth, x(group.end)) - left - 0.5);
      var base = 0;
      group.value.forEach(function (value, category) {
        if (value <= 0) { return; }
        svg("rect", { x: left, y: y(base + value), width: barWidth, height: Math.max(0.5, y(base) - y(base + value)), fill: payload.colors[category] }, root);
        base += value;
      });
    });
    svg("line", { x1: MARGIN.left, x2: MARGIN.left + chart.plotWidth, y1: bottom, y2: bottom, stroke: "#8a94a6" }, root);
    drawEvents(root, x, run.marks, 9, bottom, "mark");
    drawEvents(root, x, run.lifecycle, 19, bottom, "lifecycle");
    drawRadio(root, x, run, bottom + 16, chart.plotWidth);
    return chart;
  }

  function drawDifference(host, index, size, differenceMax) {
    var height = 64;
    var chart = chartFrame(host, index, height, "Energy of " + comparison.runs[index].label + " minus the reference's");
    var x = scaleX(chart.plotWidth);
    var middle = height / 2 - 6;
    var half = middle - 4;
    var referenceRun = timeline.runs[reference];
    drawAxis(chart.root, x, 4, height - 12, chart.plotWidth);
    groups(timeline.difference[index] || [], referenceRun.offset_s, size, plainSum).forEach(function (group) {
      if (group.value === 0) { return; }
      var left = Math.max(MARGIN.left, x(group.start));
      var barHeight = Math.max(0.5, Math.abs(group.value) / differenceMax * half);
      svg("rect", {
        x: left, y: group.value > 0 ? middle - barHeight : middle, height: barHeight,
        width: Math.max(1, Math.min(MARGIN.left + chart.plotWidth, x(group.end)) - left - 0.5), "class": group.value > 0 ? "worse" : "better"
      }, chart.root);
    });
    svg("line", { x1: MARGIN.left, x2: MARGIN.left + chart.plotWidth, y1: middle, y2: middle, stroke: "#8a94a6" }, chart.root);
    text(chart.root, MARGIN.left - 4, 12, signedJoules(differenceMax), { "text-anchor": "end", "class": "axis" });
    return chart;
  }

  function visibleMax(size) {
    var energyMax = 0;
    var differenceMax = 0;
    timeline.runs.forEach(function (run, index) {
      groups(run.energy_j.map(total), run.offset_s, size, plainSum).forEach(function (group) { energyMax = Math.max(energyMax, group.value); });
      groups(timeline.difference[index] || [], timeline.runs[reference].offset_s, size, plainSum).forEach(function (group) {
        differenceMax = Math.max(differenceMax, Math.abs(group.value));
      });
    });
    return { energy: energyMax || 1, difference: differenceMax || 1 };
  }

  function runHeading(host, index, suffix) {
    var heading = element("div", "timeline-label", host);
    var swatch = element("span", "swatch", heading);
    swatch.style.background = payload.run_colors[index];
    element("span", "run-label", heading, comparison.runs[index].label);
    element("span", "meta", heading, suffix);
  }

  function timelineHost(index, difference) {
    var host = element("div", difference ? "timeline difference" : "timeline", container);
    host.setAttribute("data-run", String(index));
    host.setAttribute("tabindex", "0");
    runHeading(host, index, difference ? " minus " + comparison.runs[reference].label + " (per bin)" : (index === reference ? " (reference)" : ""));
    return host;
  }

  /* The timelines' hosts stay while the view changes (only their drawings are replaced), so
     a focused timeline keeps the focus. */
  function buildHosts() {
    if (!timeline.runs.some(function (run) { return run.energy_j.length > 0; })) {
      element("p", "meta", container, "No timeline bins: the runs have no duration.");
      return [];
    }
    var hosts = timeline.runs.map(function (run, index) { return { element: timelineHost(index, false), run: index, difference: false }; });
    timeline.runs.forEach(function (run, index) {
      if (index !== reference) { hosts.push({ element: timelineHost(index, true), run: index, difference: true }); }
    });
    return hosts;
  }
  var hosts = buildHosts();

  function draw() {
    charts = [];
    if (!hosts.length) { return; }
    var probe = Math.max(300, container.clientWidth || 900) - MARGIN.left - MARGIN.right;
    var size = groupSize(probe);
    var maxima = visibleMax(size);
    hosts.forEach(function (host) {
      var old = host.element.querySelector("svg");
      if (old) { host.element.removeChild(old); }
      if (host.difference) { drawDifference(host.element, host.run, size, maxima.difference); } else { drawRun(host.element, host.run, size, maxima.energy); }
    });
    charts.forEach(attach);
    rangeText.textContent = "Showing " + fixed(view[0], 3) + " to " + fixed(view[1], 3) + " s of aligned time" +
      (view[0] > full[0] || view[1] < full[1] ? " (zoomed)" : "");
    showCursor();
  }

  function setView(start, end) {
    var span = Math.max(binS, Math.min(full[1] - full[0], end - start));
    var left = Math.max(full[0], Math.min(full[1] - span, start));
    view = [left, left + span];
    draw();
  }
  function zoom(factor, around) {
    setView(around - (around - view[0]) * factor, around + (view[1] - around) * factor);
  }
  function pan(share) {
    var shift = (view[1] - view[0]) * share;
    setView(view[0] + shift, view[1] + shift);
  }

  function showCursor() {
    charts.forEach(function (chart) {
      var line = chart.root.querySelector(".cursor");
      var position = cursor === null ? 0 : scaleX(chart.plotWidth)(cursor);
      line.setAttribute("x1", position);
      line.setAttribute("x2", position);
      line.setAttribute("visibility", cursor === null ? "hidden" : "visible");
    });
    clear(readout);
    if (cursor === null) { return; }
    element("strong", "", readout, "at " + fixed(cursor, 3) + " s");
    var list = element("ul", "", readout);
    timeline.runs.forEach(function (run, index) {
      var item = element("li", "", list);
      item.setAttribute("data-run", String(index));
      var swatch = element("span", "swatch", item);
      swatch.style.background = payload.run_colors[index];
      element("span", "run-label", item, comparison.runs[index].label + " ");
      var bin = binAt(run, cursor);
      element("span", "num", item, bin < 0 ? "\u2014" : joules(total(run.energy_j[bin])) + " \u00b7 " + fixed(total(run.energy_j[bin]) / binS * 1000, 1) + " mW");
    });
  }

  function attach(chart) {
    var root = chart.root;
    var selection = svg("rect", { "class": "selection", x: 0, y: 0, width: 0, height: chart.height, visibility: "hidden" }, root);
    svg("line", { "class": "cursor", x1: 0, x2: 0, y1: 0, y2: chart.height, visibility: "hidden" }, root);
    var overlay = svg("rect", { x: MARGIN.left, y: 0, width: chart.plotWidth, height: chart.height, fill: "none", "pointer-events": "all", "class": "overlay" }, root);
    chart.selection = selection;
    overlay.addEventListener("pointerdown", function (event) {
      if (event.button !== 0) { return; }
      event.preventDefault();
      drag = { chart: chart, start: timeAt(chart, event.clientX), startX: event.clientX };
    });
    overlay.addEventListener("pointermove", function (event) {
      if (drag) { return; }
      cursor = timeAt(chart, event.clientX);
      showCursor();
    });
    overlay.addEventListener("pointerleave", function () {
      if (drag) { return; }
      cursor = null;
      showCursor();
    });
    overlay.addEventListener("wheel", function (event) {
      event.preventDefault();
      zoom(event.deltaY > 0 ? 1.25 : 0.8, timeAt(chart, event.clientX));
    }, { passive: false });
  }

  function dragTo(clientX) {
    var time = timeAt(drag.chart, clientX);
    var x = scaleX(drag.chart.plotWidth);
    var left = x(Math.min(drag.start, time));
    drag.chart.selection.setAttribute("x", left);
    drag.chart.selection.setAttribute("width", Math.abs(x(time) - x(drag.start)));
    drag.chart.selection.setAttribute("visibility", "visible");
    return time;
  }
  window.addEventListener("pointermove", function (event) { if (drag) { dragTo(event.clientX); } });
  window.addEventListener("pointerup", function (event) {
    if (!drag) { return; }
    var time = dragTo(event.clientX);
    var moved = Math.abs(event.clientX - drag.startX) > 3;
    var start = drag.start;
    drag = null;
    if (moved) { setView(Math.min(start, time), Math.max(start, time)); } else { draw(); }
  });

  container.addEventListener("keydown", function (event) {
    if (!event.target.classList || !event.target.classList.contains("timeline")) { return; }
    var middle = (view[0] + view[1]) / 2;
    var actions = {
      "+": function () { zoom(0.8, middle); }, "=": function () { zoom(0.8, middle); },
      "-": function () { zoom(1.25, middle); }, "_": function () { zoom(1.25, middle); },
      ArrowLeft: function () { pan(-0.1); }, ArrowRight: function () { pan(0.1); }, "0": function () { setView(full[0], full[1]); }
    };
    if (!actions[event.key]) { return; }
    event.preventDefault();
    actions[event.key]();
  });
  document.getElementById("zoom-reset").addEventListener("click", function () { setView(full[0], full[1]); });

  function applyThreshold() {
    var threshold = Number(document.getElementById("threshold").value);
    Array.prototype.forEach.call(document.querySelectorAll("table.compare tbody tr, .card-runs li"), function (row) {
      var over = row.querySelector("[data-always]") !== null;
      Array.prototype.forEach.call(row.querySelectorAll("[data-pct]"), function (chip) {
        if (Math.abs(Number(chip.getAttribute("data-pct"))) > threshold) { over = true; }
      });
      row.classList.toggle("over", over);
    });
  }
  document.getElementById("threshold").addEventListener("change", applyThreshold);

  function cellKey(row, column) {
    var cell = row.cells[column];
    if (!cell) { return ""; }
    return cell.hasAttribute("data-value") ? cell.getAttribute("data-value") : cell.textContent;
  }
  function sortTable(table, header, column) {
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (other) { other.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var numeric = header.getAttribute("data-type") === "num";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var left = cellKey(a, column);
      var right = cellKey(b, column);
      var order = numeric ? (Number(left) || 0) - (Number(right) || 0) : left.localeCompare(right);
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (header, column) {
      header.setAttribute("tabindex", "0");
      header.addEventListener("click", function () { sortTable(table, header, column); });
      header.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortTable(table, header, column); }
      });
    });
  });

  var drawnWidth = container.clientWidth;
  var pending = false;
  window.addEventListener("resize", function () {
    if (pending || container.clientWidth === drawnWidth) { return; }
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      drawnWidth = container.clientWidth;
      draw();
    });
  });
  applyThreshold();
  draw();
})();
