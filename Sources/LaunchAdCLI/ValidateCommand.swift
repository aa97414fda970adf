import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine
import LaunchAdMedia

/// `launchad validate FILE...`: decode and analyse each creative, check it against the profile or
/// spec, print the report. Exit 1 when any rule fails, 2 for a bad command line or spec file.
public enum ValidateCommand {
    public static func run(_ options: ValidateOptions) -> Int32 {
        MediaLog.configure()
        let spec: Spec
        do { spec = try loadSpec(options) } catch { return CLIError.report(error) }
        let output: ReportFile?
        do { output = try options.output.map { try ReportFile($0) } } catch { return CLIError.report(error) }
        let showsProgress = options.progress ?? ProgressBar.isTerminal()
        var reports: [CreativeReport] =
            options.vast.map { tag in
                let bar = showsProgress ? ProgressBar(total: 1000, unit: .percent) : nil
                defer { bar?.finish() }
                return ValidateVAST.reports(options, tag: tag, spec: spec, progress: bar.map(VASTProgress.init))
            } ?? []
        if options.vast != nil { hintTheProfile(options, spec: spec, media: reports.dropFirst()) }
        let files = options.files
        let pictures = options.format == .html ? PictureRequest() : nil
        // Per cent of all the creatives' durations decoded, on a terminal (or with --progress).
        let progress = showsProgress && !files.isEmpty ? ValidateProgress(files) : nil
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = min(options.jobs ?? cores, max(1, files.count))
        // Creatives checked side by side share the cores instead of each decoding on all of them.
        let threads = jobs > 1 ? max(1, cores / jobs) : 0
        reports += parallelMap(files.count, threads: jobs) { n in
            let report = validate(files[n], spec, pictures: pictures, threads: threads) { progress?.update(n, $0) }
            progress?.update(n, 1)
            return report
        }
        progress?.finish()
        let report = ValidationReport(reports)
        let text = report.render(options.format)
        if let output {
            do { try output.commit(text) } catch { return CLIError.report(error) }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        return report.exitCode
    }

    /// One creative's report; a file that cannot be read gets a failing report with the reason.
    static func validate(
        _ file: String, _ spec: Spec, pictures: PictureRequest?, threads: Int = 0,
        progress: @escaping (Double) -> Void
    ) -> CreativeReport {
        do {
            var facts = try CreativeAnalyzer(path: file, pictures: pictures, threads: threads).run(progress: progress)
            facts.captions = CaptionTracks.facts(of: file)
            return CreativeReport.evaluate(facts, against: spec)
        } catch let e as MediaError {
            return .unreadable(file: file, spec: spec.name, reason: e.message)
        } catch {
            return .unreadable(file: file, spec: spec.name, reason: "\(error)")
        }
    }

    /// A tag's media files judged by the default profile (phone launch screens) that fail it:
    /// says which profile judged, and the CTV one a CTV tag's renditions are meant for.
    static func hintTheProfile(_ o: ValidateOptions, spec: Spec, media: ArraySlice<CreativeReport>) {
        guard !o.profileGiven, o.specPath == nil,
            media.contains(where: { $0.results.contains { $0.status == .fail && $0.rule != "readable" } })
        else { return }
        FileHandle.standardError.write(
            TerminalText.line(
                "the media files were judged by the \(spec.name) profile (the default, for launch screens);"
                    + " a CTV tag's renditions are judged by --profile iab-ctv"))
    }

    static func loadSpec(_ options: ValidateOptions) throws -> Spec {
        var spec: Spec
        if let path = options.specPath {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw UsageError("--spec: \(FileProblem(error, path: path, access: .read))")
            }
            do {
                spec = try Spec.parse(data, defaultName: (path as NSString).lastPathComponent)
            } catch let e as SpecError {
                throw SpecError("--spec \(path): \(e.message)")
            }
        } else {
            spec = Spec.profile(named: options.profile)!
        }
        return options.loudness == .ebu ? spec.withEBULoudness() : spec
    }
}

/// One bar for the whole run: each creative's decoded fraction, summed, as several are checked at once.
public final class ValidateProgress: Sendable {
    private let files: [String]
    /// Each creative's decoded fraction.
    private let done: Locked<[Double]>
    private let bar: ProgressBar

    public init(_ files: [String], output: FileHandle = .standardError) {
        self.files = files
        done = Locked(Array(repeating: 0, count: files.count))
        bar = ProgressBar(total: 1000, unit: .percent, output: output)
    }

    public func update(_ file: Int, _ fraction: Double) {
        let (total, finished) = done.withLock { done in
            done[file] = fraction
            return (done.reduce(0, +) / Double(max(1, files.count)), done.filter { $0 >= 1 }.count)
        }
        let label = files.count > 1 ? "\(finished)/\(files.count) checked" : files[file]
        bar.update(Int64((total * 1000).rounded(.down)), label: label)
    }

    public func finish() { bar.finish() }
}
