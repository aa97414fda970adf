import Foundation
import LaunchAdCore
import LaunchAdMedia

/// `launchad validate FILE...`: decode and analyse each creative, check it against the profile or
/// spec, print the report. Exit 1 when any rule fails, 2 for a bad command line or spec file.
public enum ValidateCommand {
    public static func run(_ options: ValidateOptions) -> Int32 {
        MediaLog.configure()
        let spec: Spec
        do { spec = try loadSpec(options) } catch { return CLIError.report(error) }
        let output: ReportFile?
        do { output = try options.output.map(ReportFile.init) } catch { return CLIError.report(error) }
        var reports: [CreativeReport] = options.vast.map { ValidateVAST.reports(options, tag: $0, spec: spec) } ?? []
        for (n, file) in options.files.enumerated() {
            // Per cent of the creative's duration decoded, on a terminal only.
            let bar = options.progress && ProgressBar.isTerminal() ? ProgressBar(total: 100) : nil
            let label = options.files.count > 1 ? "[\(n + 1)/\(options.files.count)] \(file)" : file
            reports.append(validate(file, spec, pictures: options.format == .html ? PictureRequest() : nil) { bar?.update(Int64(($0 * 100).rounded(.down)), label: label) })
            bar?.finish()
        }
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
    static func validate(_ file: String, _ spec: Spec, pictures: PictureRequest?, progress: @escaping (Double) -> Void) -> CreativeReport {
        do {
            var facts = try CreativeAnalyzer(path: file, pictures: pictures).run(progress: progress)
            facts.captions = CaptionTracks.facts(of: file)
            return CreativeReport.evaluate(facts, against: spec)
        } catch let e as MediaError {
            return .unreadable(file: file, spec: spec.name, reason: e.message)
        } catch {
            return .unreadable(file: file, spec: spec.name, reason: "\(error)")
        }
    }

    static func loadSpec(_ options: ValidateOptions) throws -> Spec {
        var spec: Spec
        if let path = options.specPath {
            guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("--spec: cannot read \(path)") }
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
