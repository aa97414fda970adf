/// JUnit XML as CI systems read it: a testsuite per creative, a testcase per rule, a failure per failed
/// rule. JUnit has no warnings, so a warned rule passes with the warning in its system-out.
extension ValidationReport {
    func junitReport() -> String {
        let tests = creatives.map(\.results.count).reduce(0, +)
        let failures = creatives.map { $0.count(.fail) }.reduce(0, +)
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x += "<testsuites name=\"launchad validate\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for c in creatives {
            x +=
                "  <testsuite name=\"\(MarkupText.escape(c.file))\" tests=\"\(c.results.count)\" failures=\"\(c.count(.fail))\" errors=\"0\" skipped=\"\(c.count(.skip))\">\n"
            x += "    <properties><property name=\"spec\" value=\"\(MarkupText.escape(c.spec))\"/></properties>\n"
            for r in c.results {
                let detail = MarkupText.escape("measured \(r.measuredText); limit \(r.limit)")
                x +=
                    "    <testcase classname=\"\(MarkupText.escape(c.spec)).\(MarkupText.escape(c.file))\" name=\"\(MarkupText.escape(r.rule))\""
                switch r.status {
                case .pass: x += "/>\n"
                case .warn: x += ">\n      <system-out>warning: \(detail)</system-out>\n    </testcase>\n"
                case .fail:
                    x +=
                        ">\n      <failure type=\"\(MarkupText.escape(r.rule))\" message=\"\(detail)\">\(detail)</failure>\n    </testcase>\n"
                case .skip: x += ">\n      <skipped message=\"\(MarkupText.escape(r.measuredText))\"/>\n    </testcase>\n"
                }
            }
            x += "  </testsuite>\n"
        }
        return x + "</testsuites>\n"
    }
}
