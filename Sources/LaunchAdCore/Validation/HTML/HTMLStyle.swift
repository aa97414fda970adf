/// The report's one stylesheet. Status is a colour and a word, so it survives black-and-white printing.
enum HTMLStyle {
    static func status(_ s: RuleResult.Status) -> String {
        #"<span class="status \#(s.rawValue)">\#(s.rawValue.uppercased())</span>"#
    }

    static let css = """
        body{font-family:"DejaVu Sans",Arial,sans-serif;margin:24px;color:#1a1a1a;max-width:1100px}
        h1{font-size:22px}h3{font-size:16px;margin:18px 0 6px}
        table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px;vertical-align:top}
        th{background:#f2f2f2}
        .status{font-weight:bold;padding:1px 6px;border-radius:3px;color:#fff}
        .status.pass{background:#1b7f3b}.status.warn{background:#a86400}.status.fail{background:#c62828}.status.skip{background:#777}
        tr.rule.fail td{background:#fdecea}tr.rule.warn td{background:#fff4e0}
        section.creative{border-top:3px solid #444;margin-top:28px;padding-top:8px}
        .verdict{padding:10px 14px;border-radius:4px;color:#fff;font-size:15px}
        .verdict.pass{background:#1b7f3b}.verdict.warn{background:#a86400}.verdict.fail{background:#c62828}
        .verdict .word{font-size:22px;font-weight:bold;margin-right:10px}.verdict .details{font-size:13px;margin-top:4px}
        .pictures{display:flex;flex-wrap:wrap;gap:8px}
        figure{margin:0;background:#202020;padding:4px}figure img{display:block}
        figcaption{color:#fff;font-size:12px;padding-top:3px}
        figcaption .cue{margin:2px 0 0;padding:2px 4px;background:rgba(0,0,0,.6);font-size:13px}
        svg{display:block;margin:4px 0;font-size:11px;font-family:"DejaVu Sans",Arial,sans-serif}
        .grid-y,.grid-x{stroke:#ddd;stroke-width:1}.tick{fill:#555}.axis-label{fill:#333}
        .target-band{fill:#1b7f3b;fill-opacity:.18;stroke:#1b7f3b;stroke-dasharray:4 3}.band-label{fill:#1b7f3b}
        .short-term{fill:none;stroke:#1f4e9c;stroke-width:2}.momentary{fill:none;stroke:#8fb0e0;stroke-width:1}
        .short-term-label{fill:#1f4e9c}.momentary-label{fill:#6f90c0}
        .integrated{stroke:#b0006d;stroke-width:2;stroke-dasharray:8 4}.integrated-label{fill:#b0006d;font-weight:bold}
        .meter{fill:#eee;stroke:#999}.peak{fill:#1f4e9c}.peak.over{fill:#c62828}.peak-limit{stroke:#c62828;stroke-width:3}
        .lane{fill:#f4f4f4;stroke:#ccc}.black{fill:#111}.silence{fill:#7a5cc4}.finding{fill:#d97706}.decode-error{stroke:#c62828;stroke-width:2}.axis{stroke:#888}
        ol.chain li{margin:3px 0;font-size:13px}ol.chain .uri{font-family:"DejaVu Sans Mono",monospace;word-break:break-all}ol.chain .details{color:#555}
        .chain-error,ol.chain li.failed .details{color:#c62828}tr.media.chosen td{background:#e8f5e9}tr.media.skipped td{color:#666}
        .facts.stream{display:inline-table;margin-right:12px}
        @media print{.verdict,.status{color:#000;border:2px solid #000;background:none}}
        """
}
