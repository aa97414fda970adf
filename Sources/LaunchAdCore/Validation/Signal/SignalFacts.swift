/// What the analysis filters (freezedetect, idet, cropdetect, signalstats, aphasemeter, astats) reported,
/// as plain values: the rules and the flash count are worked out from these in the core.
public struct SignalFacts: Equatable, Sendable {
    /// Why the picture filters did not run (too large, too few pictures); nil when they did or there is no video.
    public var picturesNotAnalysed: String?
    /// Why the sound filters did not run (a channel layout they cannot take) while the pictures'
    /// did; nil when they ran or there is no sound. The sound's rules are skipped with it.
    public var soundNotAnalysed: String?
    /// freezedetect's frozen stretches.
    public var freezes: [Interval] = []
    /// One reading per picture, in order.
    public var pictures: [PictureReading] = []
    /// idet's counts over the whole stream.
    public var fields: FieldCounts?
    /// cropdetect's bounds of everything that is not black over the whole stream.
    public var active: ActivePicture?
    /// One aphasemeter reading per block of sound, in order.
    public var phase: [PhaseReading] = []
    /// astats per channel over the whole stream.
    public var channels: [ChannelLevels] = []
    /// Channels of the decoded sound (aphasemeter needs two to say anything).
    public var audioChannels: Int?

    /// No readings; the analysis fills them in.
    public init() {}
}

/// signalstats' and idet's readings of one picture.
public struct PictureReading: Equatable, Sendable {
    /// When the picture is shown, seconds from the start of the file.
    public var seconds: Double
    /// Average Y, Cb and Cr code values (YAVG, UAVG, VAVG) at `bitDepth` bits.
    public var luma: Double
    /// Average Cb code value (UAVG).
    public var cb: Double
    /// Average Cr code value (VAVG).
    public var cr: Double
    /// BRNG: the fraction of pixels outside the limited (broadcast) range.
    public var outOfRange: Double
    /// Bits per component of the readings, for scaling the code values (8 for 0-255).
    public var bitDepth: Int
    /// idet called this picture interlaced (multi-frame TFF/BFF) or saw a repeated field.
    public var interlaced: Bool

    /// A reading; `bitDepth` defaults to 8 and `interlaced` to false.
    public init(seconds: Double, luma: Double, cb: Double, cr: Double, outOfRange: Double, bitDepth: Int = 8, interlaced: Bool = false) {
        self.seconds = seconds
        self.luma = luma
        self.cb = cb
        self.cr = cr
        self.outOfRange = outOfRange
        self.bitDepth = bitDepth
        self.interlaced = interlaced
    }
}

/// idet's totals, as its log prints them at the end.
public struct FieldCounts: Equatable, Sendable {
    /// Pictures called top field first, bottom field first, progressive or undetermined.
    public var tff = 0, bff = 0, progressive = 0, undetermined = 0
    /// Pictures with no repeated field, a repeated top field or a repeated bottom field.
    public var repeatedNeither = 0, repeatedTop = 0, repeatedBottom = 0
    /// Counts as given; all default to 0.
    public init(
        tff: Int = 0, bff: Int = 0, progressive: Int = 0, undetermined: Int = 0,
        repeatedNeither: Int = 0, repeatedTop: Int = 0, repeatedBottom: Int = 0
    ) {
        self.tff = tff; self.bff = bff; self.progressive = progressive; self.undetermined = undetermined
        self.repeatedNeither = repeatedNeither; self.repeatedTop = repeatedTop; self.repeatedBottom = repeatedBottom
    }

    /// Per cent of pictures called interlaced, or of pictures with a repeated field (telecine), whichever is more.
    public var interlacedPercent: Double? {
        let pictures = tff + bff + progressive + undetermined
        let repeats = repeatedNeither + repeatedTop + repeatedBottom
        guard pictures > 0 else { return nil }
        let woven = Double(tff + bff) / Double(pictures)
        let telecined = repeats > 0 ? Double(repeatedTop + repeatedBottom) / Double(repeats) : 0
        return 100 * max(woven, telecined)
    }
}

/// cropdetect's x1, x2, y1, y2 (inclusive) in a picture of width x height.
public struct ActivePicture: Equatable, Sendable {
    /// The non-black bounds, inclusive pixel coordinates.
    public var x1: Int, x2: Int, y1: Int, y2: Int
    /// The size of the picture the bounds are in, in pixels.
    public var width: Int, height: Int
    /// The non-black bounds `x1`...`x2`, `y1`...`y2` of a `width` x `height` picture.
    public init(x1: Int, x2: Int, y1: Int, y2: Int, width: Int, height: Int) {
        self.x1 = x1; self.x2 = x2; self.y1 = y1; self.y2 = y2; self.width = width; self.height = height
    }

    /// Per cent of the frame taken by black bars; nil when nothing but black was seen.
    public var barsPercent: Double? {
        guard x2 >= x1, y2 >= y1, width > 0, height > 0 else { return nil }
        return 100 * (1 - Double((x2 - x1 + 1) * (y2 - y1 + 1)) / Double(width * height))
    }
}

/// aphasemeter's phase (-1 opposite ... +1 identical channels) over a block of sound.
public struct PhaseReading: Equatable, Sendable {
    /// Start of the block, seconds from the start of the file.
    public var seconds: Double
    /// Length of the block in seconds.
    public var duration: Double
    /// Average phase over the block, -1 (opposite) to +1 (identical).
    public var phase: Double
    /// A reading of `phase` over `duration` seconds from `seconds`.
    public init(seconds: Double, duration: Double, phase: Double) { self.seconds = seconds; self.duration = duration; self.phase = phase }
}

/// astats' figures for one channel over the whole stream.
public struct ChannelLevels: Equatable, Sendable {
    /// Mean sample value, full scale = 1.
    public var dcOffset: Double
    /// Largest absolute sample in dBFS.
    public var peakLevel: Double
    /// How many samples reached that peak.
    public var peakCount: Double
    /// One channel's figures.
    public init(dcOffset: Double, peakLevel: Double, peakCount: Double) {
        self.dcOffset = dcOffset; self.peakLevel = peakLevel; self.peakCount = peakCount
    }

    /// Samples at full scale: the peak count when the peak reaches 0 dBFS, else none.
    public var clippedSamples: Double { peakLevel >= -0.001 ? peakCount : 0 }
}
