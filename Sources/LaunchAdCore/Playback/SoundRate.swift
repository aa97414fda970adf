/// The sample rates launchad gives what consumes decoded sound (the sound device, the analysis
/// filters): from 1 kHz to 768 kHz. A file may declare any rate; 1 Hz made the sound device's
/// thread sleep its 1,024-sample buffer for 17 minutes (`play` hung after its `end`), and
/// libavfilter's loudness chain corrupted memory on 1 Hz and 2 GHz (`validate` crashed).
public enum SoundRate {
    /// From 1 kHz to 768 kHz.
    public static let plausible = 1000...768_000

    /// Why sound at `rate` is not used, nil when it is.
    public static func problem(_ rate: Int) -> String? {
        plausible.contains(rate) ? nil : "its sample rate, \(rate) Hz, is outside \(plausible.lowerBound)-\(plausible.upperBound) Hz"
    }
}
