(function () {
  "use strict";
  var SVG_NS = "http://www.w3.org/2000/svg";
  var payload = JSON.parse(document.getElementById("drain-data").textContent);
  var report = payload.report;
  var timeline = report.timeline;
  var colors = payload.colors;
  var radioColors = payload.radio_colors;
  var chart = document.getElementById("timeline-chart");
  var tooltip = document.getElementById("timeline-tooltip");
  var shown = timeline.categories.map(function () { return true; });
  var showMemory = true;
  var selected = null;

  function node(name, attributes, parent) {
    var element = document.createElementNS(SVG_NS, name);
    Object.keys(attributes).forEach(function (key) { element.setAttribute(key, String(attributes[key])); });
    if (parent) { parent.appendChild(element); }
    return element;
  }
  function label(parent, x, y, content, attributes) {
    var element = node("text", Object.assign({ x: x, y: y }, attributes || {}), parent);
    element.textContent = content;
    return element;
  }
  function fixed(value, digits) { return Number(value).toFixed(digits); }
  function joules(value) {
    var magnitude = Math.abs(value);
    if (magnitude >= 1 || magnitude === 0) { return fixed(value, 2) + " J"; }
    if (magnitude >= 0.001) { return fixed(value * 1e3, 1) + " mJ"; }
    return fixed(value * 1e6, 1) + " \u00b5J";
  }
  function milliwatts(value) {
    return Math.abs(value) >= 1000 ? fixed(value / 1000, 2) + " W" : fixed(value, 1) + " mW";
  }
  function bytes(value) {
    var units = ["B", "KB", "MB", "GB", "TB"];
    var unit = 0;
    while (Math.abs(value) >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
    return unit === 0 ? fixed(value, 0) + " B" : fixed(value, value < 10 ? 2 : 1) + " " + units[unit];
  }
  function niceStep(span, count) {
    var raw = span / count;
    var power = Math.pow(10, Math.floor(Math.log10(raw)));
    var factors = [1, 2, 2.5, 5, 10];
    for (var i = 0; i < factors.length; i += 1) {
      if (raw <= factors[i] * power) { return factors[i] * power; }
    }
    return 10 * power;
  }
  function timeStep(span) {
    var raw = span / 8;
    if (raw < 30) { return niceStep(span, 8); }
    var steps = [30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800, 86400];
    for (var i = 0; i < steps.length; i += 1) { if (raw <= steps[i]) { return steps[i]; } }
    return Math.ceil(raw / 86400) * 86400;
  }
  function timeLabel(seconds, step) {
    if (step >= 3600) { return fixed(seconds / 3600, 0) + " h"; }
    if (step >= 60) { return fixed(seconds / 60, 0) + " min"; }
    var digits = step >= 1 ? 0 : Math.min(3, Math.ceil(-Math.log10(step)));
    return fixed(seconds, digits) + " s";
  }

  // A run with time gaps (timeline.segments) is drawn segment by segment: each gap is a
  // narrow hatched break on the axis, not years of empty bins. `position` maps a time on the
  // report's clock to the drawn axis (active time plus the breaks); without gaps it is the time.
  var segments = timeline.segments && timeline.segments.length ? timeline.segments : null;
  var spans = (segments || [{ start_s: 0, end_s: 0, first_bin: 0 }]).map(function (segment, index, all) {
    var next = index + 1 < all.length ? all[index + 1].first_bin : timeline.energy_j.length;
    return { start: segment.start_s, end: segment.end_s, first: segment.first_bin, bins: next - segment.first_bin, offset: 0 };
  });
  var breakSpan = segments ? 0.04 * spans.reduce(function (sum, span) { return sum + span.bins * timeline.bin_s; }, 0) : 0;
  var axisLength = 0;
  spans.forEach(function (span) { span.offset = axisLength; axisLength += span.bins * timeline.bin_s + breakSpan; });
  axisLength -= breakSpan;
  function position(seconds) {
    if (!segments) { return seconds; }
    var span = spans[0];
    spans.forEach(function (candidate) { if (candidate.start <= seconds) { span = candidate; } });
    return span.offset + Math.min(Math.max(0, seconds - span.start), span.bins * timeline.bin_s);
  }
  function lengthText(seconds) {
    if (seconds >= 86400) { return fixed(seconds / 86400, 1) + " d"; }
    if (seconds >= 3600) { return fixed(seconds / 3600, 1) + " h"; }
    if (seconds >= 60) { return fixed(seconds / 60, 1) + " min"; }
    return fixed(seconds, 1) + " s";
  }

  function groupBins(maxBars) {
    var count = timeline.energy_j.length;
    var size = Math.max(1, Math.ceil(count / Math.max(1, maxBars)));
    var groups = [];
    spans.forEach(function (span) {
      for (var first = span.first; first < span.first + span.bins; first += size) {
        var last = Math.min(span.first + span.bins, first + size);
        var energy = timeline.categories.map(function () { return 0; });
        var memory = null;
        for (var bin = first; bin < last; bin += 1) {
          var row = timeline.energy_j[bin] || [];
          for (var category = 0; category < energy.length; category += 1) { energy[category] += row[category] || 0; }
          var peak = timeline.memory_peak_bytes[bin];
          if (typeof peak === "number" && (memory === null || peak > memory)) { memory = peak; }
        }
        var start = span.start + (first - span.first) * timeline.bin_s;
        groups.push({ start: start, end: start + (last - first) * timeline.bin_s, energy: energy, memory: memory });
      }
    });
    return groups;
  }

  function clear(element) { while (element.firstChild) { element.removeChild(element.firstChild); } }
  function hideTooltip() { tooltip.style.display = "none"; }

  function showTooltip(group, event, hoverLine, x) {
    clear(tooltip);
    var title = document.createElement("strong");
    title.textContent = fixed(group.start, 3) + "\u2013" + fixed(group.end, 3) + " s";
    tooltip.appendChild(title);
    var table = document.createElement("table");
    function row(name, value, color, off) {
      var line = table.insertRow();
      if (off) { line.className = "off"; }
      var nameCell = line.insertCell();
      if (color) {
        var swatch = document.createElement("span");
        swatch.className = "swatch";
        swatch.style.background = color;
        nameCell.appendChild(swatch);
      }
      nameCell.appendChild(document.createTextNode(name));
      var valueCell = line.insertCell();
      valueCell.className = "num";
      valueCell.textContent = value;
    }
    var total = 0;
    group.energy.forEach(function (value, category) {
      row(timeline.categories[category], joules(value), colors[category], !shown[category]);
      total += value;
    });
    var span = group.end - group.start;
    row("total", joules(total) + (span > 0 ? " \u00b7 " + milliwatts(total / span * 1000) : ""));
    if (group.memory !== null) { row("memory peak", bytes(group.memory)); }
    var states = [];
    report.radio.lane.forEach(function (segment) {
      if (segment.start_s < group.end && segment.end_s > group.start) {
        var text = segment.link + " " + segment.state;
        if (states.indexOf(text) < 0) { states.push(text); }
      }
    });
    if (states.length) { row("radio", states.join(", ")); }
    var state = null;
    timeline.lifecycle.forEach(function (mark) { if (mark.time_s < group.end) { state = mark.state; } });
    if (state !== null) { row("lifecycle", state); }
    tooltip.appendChild(table);
    hoverLine.setAttribute("x1", x);
    hoverLine.setAttribute("x2", x);
    hoverLine.setAttribute("visibility", "visible");
    tooltip.style.display = "block";
    var panel = tooltip.parentNode.getBoundingClientRect();
    var left = event.clientX - panel.left + 16;
    if (left + tooltip.offsetWidth > panel.width) { left = event.clientX - panel.left - tooltip.offsetWidth - 16; }
    tooltip.style.left = Math.max(0, left) + "px";
    tooltip.style.top = Math.max(0, event.clientY - panel.top + 16) + "px";
  }

  function draw() {
    clear(chart);
    hideTooltip();
    var count = timeline.energy_j.length;
    if (count === 0) {
      var empty = document.createElement("p");
      empty.className = "meta";
      empty.textContent = "No timeline bins: the run has no duration.";
      chart.appendChild(empty);
      return;
    }
    var links = [];
    report.radio.lane.forEach(function (segment) { if (links.indexOf(segment.link) < 0) { links.push(segment.link); } });
    var width = Math.max(520, Math.floor(chart.clientWidth || 960));
    var margin = { left: 70, right: 72, top: 46, bottom: 26 };
    var plotWidth = width - margin.left - margin.right;
    var plotHeight = 240;
    var laneHeight = 14;
    var laneGap = 6;
    var laneTop = margin.top + plotHeight + margin.bottom + 6;
    var height = links.length ? laneTop + links.length * (laneHeight + laneGap) + 24 : margin.top + plotHeight + margin.bottom;
    var root = node("svg", {
      viewBox: "0 0 " + width + " " + height, width: width, height: height, role: "img",
      "aria-label": "Energy per category over time, memory peak, lifecycle and radio states"
    }, chart);
    var groups = groupBins(Math.floor(plotWidth / 3));
    var end = (segments ? axisLength : Math.max(report.duration_s || 0, count * timeline.bin_s)) || 1;
    function x(seconds) { return margin.left + Math.max(0, Math.min(1, position(seconds) / end)) * plotWidth; }

    var top = 0;
    groups.forEach(function (group) {
      var sum = 0;
      group.energy.forEach(function (value, category) { if (shown[category]) { sum += value; } });
      top = Math.max(top, sum);
    });
    var energyStep = niceStep(top > 0 ? top : 1, 4);
    var energyTicks = Math.max(1, Math.ceil((top > 0 ? top : 1) / energyStep - 1e-9));
    var energyMax = energyTicks * energyStep;
    function y(value) { return margin.top + plotHeight - value / energyMax * plotHeight; }
    for (var tick = 0; tick <= energyTicks; tick += 1) {
      var value = tick * energyStep;
      node("line", { x1: margin.left, x2: margin.left + plotWidth, y1: y(value), y2: y(value), stroke: "#e2e6ec" }, root);
      label(root, margin.left - 6, y(value) + 4, joules(value), { "text-anchor": "end", "class": "axis" });
    }
    label(root, 0, 12, "energy per bin", { "class": "axis" });

    if (selected) {
      node("rect", {
        x: x(selected[0]), y: margin.top, width: Math.max(2, x(selected[1]) - x(selected[0])), height: plotHeight,
        fill: "#ffe58f", "fill-opacity": 0.6
      }, root);
    }

    groups.forEach(function (group) {
      var left = x(group.start);
      var span = x(group.end) - left;
      var barWidth = Math.max(1, span > 4 ? span - 1 : span);
      var base = 0;
      group.energy.forEach(function (value, category) {
        if (!shown[category] || value <= 0) { return; }
        node("rect", {
          x: left, y: y(base + value), width: barWidth, height: Math.max(0.5, y(base) - y(base + value)), fill: colors[category]
        }, root);
        base += value;
      });
    });

    var sampled = groups.filter(function (group) { return group.memory !== null; });
    if (showMemory && sampled.length) {
      var memoryTop = Math.max.apply(null, sampled.map(function (group) { return group.memory; }));
      var limit = report.memory.limit_bytes;
      var drawLimit = limit > 0 && limit <= memoryTop * 1.5;
      var memorySpan = Math.max(memoryTop * 1.1, drawLimit ? limit * 1.05 : 0) || 1;
      var memoryStep = niceStep(memorySpan, 4);
      var memoryMax = Math.ceil(memorySpan / memoryStep - 1e-9) * memoryStep;
      var memoryY = function (bytesValue) { return margin.top + plotHeight - bytesValue / memoryMax * plotHeight; };
      for (var memoryTick = 0; memoryTick * memoryStep <= memoryMax + memoryStep / 2; memoryTick += 1) {
        label(root, margin.left + plotWidth + 6, memoryY(memoryTick * memoryStep) + 4, bytes(memoryTick * memoryStep), { "class": "axis" });
      }
      label(root, width, 12, "memory peak", { "text-anchor": "end", "class": "axis" });
      if (drawLimit) {
        node("line", {
          x1: margin.left, x2: margin.left + plotWidth, y1: memoryY(limit), y2: memoryY(limit),
          stroke: "#c53030", "stroke-dasharray": "6 4"
        }, root);
        label(root, margin.left + plotWidth - 4, memoryY(limit) - 4, "memory limit", { "text-anchor": "end", fill: "#c53030" });
      }
      var path = sampled.map(function (group, index) {
        return (index ? "L" : "M") + fixed(x((group.start + group.end) / 2), 1) + " " + fixed(memoryY(group.memory), 1);
      }).join(" ");
      node("path", { d: path, fill: "none", stroke: "#1d2330", "stroke-width": 2, "stroke-linejoin": "round" }, root);
      if (sampled.length === 1) {
        node("circle", { cx: x((sampled[0].start + sampled[0].end) / 2), cy: memoryY(sampled[0].memory), r: 3, fill: "#1d2330" }, root);
      }
    }

    timeline.lifecycle.forEach(function (mark, index) {
      var position = x(mark.time_s);
      node("line", {
        x1: position, x2: position, y1: margin.top - (index % 2 ? 6 : 17), y2: margin.top + plotHeight,
        stroke: "#5b6475", "stroke-dasharray": "3 3"
      }, root);
      label(root, position + 3, index % 2 ? margin.top - 8 : margin.top - 19, mark.state, { fill: "#5b6475" });
    });

    var step = timeStep(end);
    spans.forEach(function (span, index) {
      var spanEnd = segments ? span.bins * timeline.bin_s : end;
      for (var second = 0; second <= spanEnd + step * 1e-6; second += step) {
        var tickX = x(span.start + second);
        node("line", { x1: tickX, x2: tickX, y1: margin.top + plotHeight, y2: margin.top + plotHeight + 4, stroke: "#8a94a6" }, root);
        label(root, tickX, margin.top + plotHeight + 16, timeLabel(span.start + second, step), { "text-anchor": "middle", "class": "axis" });
      }
      if (index === 0) { return; }
      var before = spans[index - 1];
      var breakLeft = margin.left + (before.offset + before.bins * timeline.bin_s) / end * plotWidth;
      var breakRight = margin.left + span.offset / end * plotWidth;
      node("rect", {
        x: breakLeft, y: margin.top, width: Math.max(1, breakRight - breakLeft), height: plotHeight, fill: "#f1f3f6",
        stroke: "#8a94a6", "stroke-dasharray": "2 3"
      }, root);
      label(root, (breakLeft + breakRight) / 2, margin.top + 12, "gap " + lengthText(span.start - before.end), {
        "text-anchor": "middle", "class": "axis"
      });
    });
    node("line", {
      x1: margin.left, x2: margin.left + plotWidth, y1: margin.top + plotHeight, y2: margin.top + plotHeight, stroke: "#8a94a6"
    }, root);

    links.forEach(function (link, row) {
      var laneY = laneTop + row * (laneHeight + laneGap);
      label(root, margin.left - 6, laneY + laneHeight - 3, link, { "text-anchor": "end", "class": "axis" });
      node("rect", { x: margin.left, y: laneY, width: plotWidth, height: laneHeight, fill: "#f1f3f6" }, root);
      report.radio.lane.forEach(function (segment) {
        if (segment.link !== link) { return; }
        node("rect", {
          x: x(segment.start_s), y: laneY, width: Math.max(1, x(segment.end_s) - x(segment.start_s)), height: laneHeight,
          fill: radioColors[segment.state] || "#bab0ac"
        }, root);
      });
    });
    if (links.length) {
      var legendX = margin.left;
      var legendY = laneTop + links.length * (laneHeight + laneGap) + 12;
      label(root, margin.left - 6, legendY, "radio", { "text-anchor": "end", "class": "axis" });
      Object.keys(radioColors).sort().forEach(function (state) {
        node("rect", { x: legendX, y: legendY - 9, width: 10, height: 10, rx: 2, fill: radioColors[state] }, root);
        var text = label(root, legendX + 14, legendY, state, { "class": "axis" });
        var textWidth = text.getComputedTextLength ? text.getComputedTextLength() : state.length * 6;
        legendX += 14 + textWidth + 16;
      });
    }

    var hoverLine = node("line", {
      x1: 0, x2: 0, y1: margin.top, y2: margin.top + plotHeight, stroke: "#1d2330", "stroke-opacity": 0.35, visibility: "hidden"
    }, root);
    var overlay = node("rect", {
      x: margin.left, y: margin.top, width: plotWidth, height: height - margin.top, fill: "none", "pointer-events": "all"
    }, root);
    overlay.addEventListener("mousemove", function (event) {
      var box = root.getBoundingClientRect();
      var pointer = (event.clientX - box.left) * (width / box.width);
      var along = (pointer - margin.left) / plotWidth * end;
      var index = groups.length - 1;
      for (var candidate = 0; candidate < groups.length; candidate += 1) {
        if (position(groups[candidate].start) + (groups[candidate].end - groups[candidate].start) > along) { index = candidate; break; }
      }
      showTooltip(groups[index], event, hoverLine, x((groups[index].start + groups[index].end) / 2));
    });
    overlay.addEventListener("mouseleave", function () {
      hideTooltip();
      hoverLine.setAttribute("visibility", "hidden");
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("#timeline-legend [data-series]"), function (button) {
    button.addEventListener("click", function () {
      var series = button.getAttribute("data-series");
      var on = button.getAttribute("aria-pressed") !== "true";
      button.setAttribute("aria-pressed", on ? "true" : "false");
      if (series === "memory") { showMemory = on; } else { shown[Number(series)] = on; }
      draw();
    });
  });

  Array.prototype.forEach.call(document.querySelectorAll("button.range"), function (button) {
    button.addEventListener("click", function () {
      selected = [Number(button.getAttribute("data-start")), Number(button.getAttribute("data-end"))];
      draw();
      chart.scrollIntoView({ block: "center", behavior: "smooth" });
    });
  });

  function sortKey(cell) {
    if (!cell) { return ""; }
    var value = cell.getAttribute("data-value");
    return value !== null ? value : cell.textContent;
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var headers = table.querySelectorAll("thead th");
    Array.prototype.forEach.call(headers, function (header, column) {
      header.setAttribute("tabindex", "0");
      function sort() {
        var ascending = header.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(headers, function (other) { other.removeAttribute("aria-sort"); });
        header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var numeric = header.getAttribute("data-type") === "num";
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var left = sortKey(a.cells[column]);
          var right = sortKey(b.cells[column]);
          var order = numeric ? (Number(left) || 0) - (Number(right) || 0) : String(left).localeCompare(String(right));
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      }
      header.addEventListener("click", sort);
      header.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(); }
      });
    });
  });

  var pending = false;
  var drawnWidth = chart.clientWidth;
  window.addEventListener("resize", function () {
    if (pending || chart.clientWidth === drawnWidth) { return; }
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      drawnWidth = chart.clientWidth;
      draw();
    });
  });
  draw();
})();
