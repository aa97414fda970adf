@testable import LaunchAdCore

extension ParseBudget {
    /// A minute for reading a caption file in a test: generous, never the limit under test.
    static var testMinute: ParseBudget { CaptionFormat.budget(seconds: 60, limitName: "the test's minute") }
}
