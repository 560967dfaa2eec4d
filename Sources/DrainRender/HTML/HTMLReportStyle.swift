/// The HTML report's stylesheet: system fonts, light theme, print-friendly.
enum HTMLReportStyle {
    static let css = #"""
        :root { --fg: #1d2330; --muted: #5b6475; --line: #e2e6ec; --bg: #f5f6f8; --panel: #fff;
          --error: #c53030; --warning: #c27c0e; --info: #2b6cb0; --pass: #2f855a; --na: #8a94a6;
          --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
        * { box-sizing: border-box; }
        body { margin: 0; color: var(--fg); background: var(--bg);
          font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        header.top { background: var(--panel); border-bottom: 1px solid var(--line); }
        .wrap, main { max-width: 1180px; margin: 0 auto; padding: 18px 28px; }
        main { padding-top: 4px; padding-bottom: 40px; }
        .brand { font-size: 12px; font-weight: 600; letter-spacing: .06em; text-transform: uppercase; color: var(--info); }
        h1 { font-size: 24px; margin: 2px 0 4px; overflow-wrap: anywhere; }
        h2 { font-size: 17px; margin: 30px 0 10px; }
        h3 { font-size: 15px; margin: 4px 0; overflow-wrap: anywhere; }
        p { margin: 6px 0; overflow-wrap: anywhere; }
        code { font-family: var(--mono); font-size: 12.5px; overflow-wrap: anywhere; }
        .meta { color: var(--muted); }
        .muted { color: var(--na); }
        .count { display: inline-block; min-width: 22px; padding: 0 7px; border-radius: 11px; background: #e8ebf0;
          color: var(--muted); font-size: 13px; text-align: center; }
        .input-list { margin: 6px 0 10px; padding-left: 18px; }
        nav { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 13px; }
        nav a { color: var(--info); text-decoration: none; }
        nav a:hover { text-decoration: underline; }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; }
        .card, .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
        .card { padding: 12px 14px; }
        .panel { padding: 14px 16px; position: relative; }
        .card .label { font-size: 11.5px; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; }
        .card .value { font-size: 21px; font-weight: 650; font-variant-numeric: tabular-nums; margin: 2px 0; white-space: nowrap; }
        .card .value small { font-size: 13px; font-weight: 400; color: var(--muted); }
        .card .sub { font-size: 12px; color: var(--muted); }
        .meter { height: 6px; background: #e8ebf0; border-radius: 3px; overflow: hidden; margin: 4px 0; }
        .meter span { display: block; height: 100%; }
        .good { background: var(--pass); } .fair { background: #d69e2e; } .poor { background: var(--error); }
        .areas { grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); margin-bottom: 14px; }
        .bar-row { display: grid; grid-template-columns: 120px 1fr 170px; gap: 12px; align-items: center; margin: 5px 0; }
        .bar-name { overflow-wrap: anywhere; }
        .bar-track { background: #eef0f4; height: 14px; border-radius: 3px; overflow: hidden; }
        .bar-fill { height: 100%; border-radius: 3px; }
        .bar-value { font-variant-numeric: tabular-nums; text-align: right; }
        .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
        .line-swatch { display: inline-block; width: 14px; height: 0; border-top: 2px solid #1d2330; margin: 0 6px 3px 0; }
        .legend { margin: 8px 0 4px; }
        .legend button { font: inherit; font-size: 12.5px; color: var(--fg); background: var(--panel); cursor: pointer;
          border: 1px solid var(--line); border-radius: 14px; padding: 2px 10px; margin: 0 6px 6px 0; }
        .legend button[aria-pressed="false"] { opacity: .45; text-decoration: line-through; }
        .chart { position: relative; min-height: 120px; }
        .chart svg { display: block; max-width: 100%; height: auto; font: 11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        .chart .axis { fill: var(--muted); }
        .tooltip { position: absolute; display: none; pointer-events: none; z-index: 5; background: rgba(29, 35, 48, .95);
          color: #fff; border-radius: 6px; padding: 8px 10px; font-size: 12px; white-space: nowrap; }
        .tooltip table { background: none; border: 0; width: auto; margin-top: 4px; }
        .tooltip td { border: 0; padding: 0 8px 0 0; color: #fff; }
        .tooltip .off { opacity: .5; }
        table { border-collapse: collapse; width: 100%; background: var(--panel); border: 1px solid var(--line);
          border-radius: 8px; font-size: 13px; }
        th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
        th { font-size: 11.5px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; background: #fafbfc; }
        .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        table.sortable th { cursor: pointer; user-select: none; }
        table.sortable th[aria-sort="ascending"]::after { content: " ▲"; }
        table.sortable th[aria-sort="descending"]::after { content: " ▼"; }
        .badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600;
          color: #fff; background: var(--na); white-space: nowrap; }
        .badge.error { background: var(--error); } .badge.warning { background: var(--warning); }
        .badge.info { background: var(--info); } .badge.pass { background: var(--pass); }
        .finding { background: var(--panel); border: 1px solid var(--line); border-left: 4px solid var(--na);
          border-radius: 8px; padding: 12px 16px; margin: 12px 0; }
        .finding.error { border-left-color: var(--error); } .finding.warning { border-left-color: var(--warning); }
        .finding.info { border-left-color: var(--info); }
        .finding-head { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
        .finding .energy { margin-left: auto; font-weight: 600; font-variant-numeric: tabular-nums; }
        .finding table { margin: 8px 0; max-width: 720px; }
        .rule-id { color: var(--fg); font-weight: 600; }
        .ranges { margin: 6px 0; }
        .range { font: inherit; font-size: 12px; font-variant-numeric: tabular-nums; cursor: pointer; color: var(--info);
          background: #eef4fb; border: 1px solid #c9dcf0; border-radius: 4px; padding: 0 6px; margin: 2px 2px 2px 0; }
        .fix { background: #eefaf2; border: 1px solid #c6ecd2; border-radius: 6px; padding: 6px 10px; }
        .guidance { color: var(--muted); font-size: 13px; }
        .guidance cite { font-style: normal; font-weight: 600; }
        .input { margin: 10px 0; }
        dl.model { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0; }
        dl.model dt { color: var(--muted); } dl.model dd { margin: 0; overflow-wrap: anywhere; }
        #model table { margin-top: 12px; }
        footer { max-width: 1180px; margin: 0 auto; padding: 0 28px 30px; color: var(--muted); font-size: 12px; }
        @media print {
          body { background: #fff; font-size: 12px; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
          nav, .legend button[aria-pressed="false"], .tooltip { display: none !important; }
          .card, .panel, .finding, tr { break-inside: avoid; }
          h2 { break-after: avoid; }
          .wrap, main { max-width: none; padding: 8px 0; }
        }

        """#
}
