extension Fixtures {
    /// A 320x160 clip, red on the left and blue on the right, whose display matrix turns it 90
    /// degrees counter-clockwise: the ffmpeg CLI shows it portrait 160x320, blue on top, red below.
    public static func redBlueTurned() throws -> String {
        let flat = try make(
            "redblue-wide.mp4",
            [
                "-f", "lavfi", "-i", "color=c=red:s=160x160:d=1", "-f", "lavfi", "-i",
                "color=c=blue:s=160x160:d=1", "-filter_complex", "[0][1]hstack", "-c:v", "libx264", "-pix_fmt", "yuv420p"
            ])
        return try make("redblue-rot90.mp4", ["-i", flat, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
    }
}
