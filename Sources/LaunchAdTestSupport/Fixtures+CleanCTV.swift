extension Fixtures {
    /// 6 s of 640x360 H.264 High at a constant 1 Mbit/s tagged BT.709, a keyframe a second; a 1 kHz
    /// sine at -24 dBFS on both channels (-24 LUFS), AAC-LC 48 kHz stereo, faststart: made to pass
    /// every iab-ctv rule. (testsrc, not testsrc2: idet reads testsrc2's fast sharp edges as interlaced.)
    public static func cleanCTVClip() throws -> String {
        try make(
            "clean-ctv.mp4",
            [
                "-f", "lavfi", "-i", "testsrc=s=640x360:r=25:d=6",
                "-f", "lavfi", "-i", "aevalsrc=0.0630957*sin(2*PI*1000*t)|0.0630957*sin(2*PI*1000*t):s=48000:d=6",
                "-c:v", "libx264", "-profile:v", "high", "-pix_fmt", "yuv420p", "-g", "25", "-b:v", "1000k", "-minrate", "1000k",
                "-maxrate", "1000k", "-bufsize", "1000k", "-x264-params", "nal-hrd=cbr",
                "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv",
                "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart"
            ])
    }
}
