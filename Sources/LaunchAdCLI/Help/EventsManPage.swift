import LaunchAdCore
import LaunchAdEngine

/// launchad-events(7), `launchad help --man events`: every kind of event line with its fields
/// (`EventCatalog`), the outcomes with their exit codes and the error codes, each list taken
/// from the typed values the lines are written from.
enum EventsManPage {
    static func render(catalog: CommandCatalog = .launchad) -> String {
        var out = ManPage.header("launchad-events", section: 7)
        out += [".SH NAME", "launchad\\-events \\- the JSON lines launchad writes as a run goes"]
        out += [
            ".SH DESCRIPTION",
            ManPage.prose(
                catalog,
                "play, launch and prefetch write one JSON object per line on stdout, or to the --events FILE: "
                    + "{\"event\": NAME, \"t_ms\": MS, ...}, where t_ms counts milliseconds from the process's start. "
                    + "A run ends with exactly one end event, its last line. The lines follow event schema "
                    + "\(LaunchEvent.schemaVersion) (launchad --version names it): the number goes up when a field changes "
                    + "meaning or goes away, never for an event or a field that is added, so a reader ignores what it does not know. "
                    + "Each kind below names its fields in the order the lines have them (a field that does not apply is left out "
                    + "or null) and the page of /usr/share/doc/launchad/ that tells more.")
        ]
        for group in EventCatalog.groups {
            out += [".SH \(group.title.uppercased().roffEscaped)"]
            for entry in group.entries {
                let fields = entry.fields.isEmpty ? "no fields" : "fields: " + entry.fields.joined(separator: ", ")
                out += [
                    ".TP", "\\fB\(entry.name.roffEscaped)\\fR", ManPage.prose(catalog, "\(entry.summary); \(fields). See \(entry.page).md.")
                ]
            }
        }
        out += [
            ".SH OUTCOMES",
            ManPage.prose(catalog, "The end event's outcome, and the exit status it gives (launch --then: the application's).")
        ]
        for outcome in Outcome.allCases {
            out += [".TP", "\\fB\(outcome.rawValue.roffEscaped)\\fR", "exit status \(outcome.exitCode)"]
        }
        out += [
            ".SH ERROR CODES",
            ManPage.prose(
                catalog,
                "The error event's code (and a fallback's or media_fallback's): "
                    + FailureCode.allCases.map(\.rawValue).joined(separator: ", ")
                    + "; a VAST error is vast_ and its VAST error number (vast_303: no ad after one or more wrappers). See playing.md and vast.md."
            )
        ]
        let commands = catalog.commands.filter { $0.page != nil }.map { "\\fBlaunchad\\-\($0.name.roffEscaped)\\fR(1)" }
        out += [".SH SEE ALSO", (["\\fBlaunchad\\fR(1)"] + commands).joined(separator: ", ")]
        return out.joined(separator: "\n")
    }
}
