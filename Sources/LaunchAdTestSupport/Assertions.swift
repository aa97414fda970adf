import Foundation
import XCTest

/// The message of the `E` that `body` throws, checked to be one line; "" (and a failure) otherwise.
public func oneLineError<E: Error>(
    _ type: E.Type, _ message: KeyPath<E, String>, file: StaticString = #filePath, line: UInt = #line,
    _ body: () throws -> Void
) -> String {
    do {
        try body()
        XCTFail("accepted", file: file, line: line)
    } catch let e as E {
        XCTAssertFalse(e[keyPath: message].contains("\n"), file: file, line: line)
        return e[keyPath: message]
    } catch {
        XCTFail("threw \(error), not \(E.self)", file: file, line: line)
    }
    return ""
}

/// Parses one line as JSON with Foundation's own parser: the line must be valid JSON on its own.
public func parseJSON(_ line: String, file: StaticString = #filePath, line l: UInt = #line) -> Any? {
    do {
        return try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
    } catch {
        XCTFail("not JSON: \(line) (\(error))", file: file, line: l)
        return nil
    }
}
