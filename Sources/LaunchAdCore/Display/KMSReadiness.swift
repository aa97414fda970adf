/// Whether SDL's kmsdrm driver can be started without hanging or taking the console: a DRM card
/// it can open, and input devices it can read (SDL switches the console keyboard off while it
/// runs, so unreadable devices would leave nobody able to type or stop it).
public enum KMSReadiness {
    /// A device node and whether this process can open it as SDL would.
    public struct Node: Equatable, Sendable {
        /// The device node's path, such as `/dev/dri/card0` or `/dev/input/event3`.
        public var path: String
        /// Whether this process can open it (read-write for a card, read for input).
        public var usable: Bool
        /// A node at `path`, usable or not.
        public init(path: String, usable: Bool) { self.path = path; self.usable = usable }
    }

    /// nil when kmsdrm may start; otherwise the cause, one line.
    public static func problem(drm: [Node]?, input: [Node]) -> String? {
        guard let drm else { return "no DRM device: /dev/dri does not exist (no GPU or display controller visible to this system)" }
        let cards = drm.filter { ($0.path.split(separator: "/").last ?? "").hasPrefix("card") }
        if cards.isEmpty { return "no DRM device: /dev/dri has no card node" }
        if !cards.contains(where: \.usable) {
            return
                "cannot open \(cards.map(\.path).joined(separator: ", ")) for reading and writing (add the user to the video group, or run on a seat)"
        }
        if !input.isEmpty && !input.contains(where: \.usable) {
            return "cannot read the input devices in /dev/input (add the user to the input group); SDL would lock the console"
        }
        return nil
    }
}
