// The style sheet of berth simulate's HTML pages (report.html of a replay and of a model-load
// study): no external font or file, so a page renders offline. Internal to sim/report.
#pragma once

namespace berth::sim::report::internal {

inline constexpr const char* kReportCss =
    "body{font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;margin:24px "
    "auto;max-width:1100px;padding:0 16px;color:#222}\n"
    "h1{font-size:22px;margin:0 0 4px}\n"
    "h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}\n"
    "p.meta{color:#555;margin:0 0 12px}\n"
    "p.note{color:#666;font-size:13px}\n"
    "table{border-collapse:collapse;font-size:12.5px;margin:8px 0;display:block;overflow-x:auto}\n"
    "th,td{border:1px solid #ddd;padding:3px 7px;text-align:right;white-space:nowrap}\n"
    "th{white-space:normal;vertical-align:bottom;min-width:4em}\n"
    "td.l{white-space:normal;overflow-wrap:anywhere;max-width:24em}\n"
    "p.meta,.legend{overflow-wrap:anywhere}\n"
    "th{background:#f4f4f4}\n"
    "td.l,th.l{text-align:left}\n"
    "figure{margin:10px 0 18px}\n"
    "svg{width:100%;max-width:820px;height:auto;display:block}\n"
    "svg text{font:11px system-ui,sans-serif;fill:#333}\n"
    "svg text.ct{font-size:13px;font-weight:600}\n"
    "svg text.yt{text-anchor:end;dominant-baseline:middle}\n"
    "svg text.xt,svg text.xl,svg text.yl{text-anchor:middle}\n"
    "svg text.empty{text-anchor:middle;fill:#999}\n"
    "svg .grid{stroke:#e6e6e6}\n"
    "svg .tick{stroke:#999}\n"
    "svg .plot{fill:none;stroke:#bbb}\n"
    "svg .ln{fill:none;stroke-width:1.6}\n"
    "svg .mark{stroke:#000;stroke-width:2.5}\n"
    "svg .ev{stroke:#d55e00;stroke-width:1.2;stroke-dasharray:4 3}\n"
    "svg text.evn{text-anchor:middle;font-size:10px;fill:#d55e00}\n"
    "ol.events{font-size:12px;color:#555;margin:4px 0 0 64px;padding-left:18px}\n"
    ".legend{font-size:12px;margin:2px 0 0 64px}\n"
    ".key{margin-right:14px;white-space:nowrap}\n"
    ".sw{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px;border-"
    "radius:2px}\n"
    "footer{margin-top:32px;color:#888;font-size:12px}\n";

}  // namespace berth::sim::report::internal
