import Foundation
import LaunchAdCore
import LaunchAdEngine
import LaunchAdMedia
import LaunchAdPlayer

/// `launchad preview FILE --out gallery.png`: the picture at `--at`, drawn on every device, written as PNG.
public enum PreviewCommand {
    public static func run(_ o: PreviewOptions) -> Int32 {
        MediaLog.configure()
        do {
            let (picture, duration) = try StillPicture.rgba(o.file, at: o.at)
            let logo = try o.play.logo.map {
                try ImageLoader.load(path: $0, network: RunNetwork(PrefetchOptions()).streaming(reach: .any))
            }
            // The countdown as the session runs it: a video's own length (capped), an image's --duration.
            var config = PlayerConfig(o.play)
            config.session =
                duration.map { SessionConfig.video(durationMs: Int(($0 * 1000).rounded()), options: o.play) }
                ?? SessionConfig.image(options: o.play)
            let gallery = try DeviceGallery.render(
                picture, logo: logo, devices: o.devices, config: config,
                atMs: Int((o.at * 1000).rounded()))
            try StillPicture.writePNG(rgba: gallery.pixels, width: gallery.size.width, height: gallery.size.height, to: o.out)
            print(
                "wrote \(TerminalText.escaped(o.out)): \(gallery.size.width)x\(gallery.size.height), \(o.devices.map(\.label).joined(separator: ", ")) at \(SpecValue.format(o.at)) s"
            )
            return ExitCode.success
        } catch {
            return CLIError.report(error)
        }
    }
}
