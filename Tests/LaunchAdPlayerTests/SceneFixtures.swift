import LaunchAdCore
import LaunchAdTestSupport

/// Pictures and option sets shared by the layout tests on each display.
enum SceneFixtures {
    /// Left half red, right half blue, 200x400.
    static func redBluePNG() throws -> String {
        try Fixtures.make(
            "redblue.png",
            [
                "-f", "lavfi", "-i", "color=c=red:s=100x400,format=rgb24", "-f", "lavfi", "-i",
                "color=c=blue:s=100x400,format=rgb24", "-filter_complex", "[0][1]hstack", "-frames:v", "1"
            ])
    }

    /// `file` in a 360x640 logo-bottom window with a lime 120x60 logo, filled, no transition:
    /// the band is 120 high from y=520, the logo at its centre (180,580).
    static func logoBottom(_ file: String) throws -> PlayOptions {
        var options = PlayOptions(file: file)
        options.size = Size(width: 360, height: 640)
        options.layout = .logoBottom
        options.logo = try Fixtures.make("logo-lime.png", ["-f", "lavfi", "-i", "color=c=lime:s=120x60", "-frames:v", "1"])
        options.fit = .fill
        options.transition = .none
        return options
    }
}
