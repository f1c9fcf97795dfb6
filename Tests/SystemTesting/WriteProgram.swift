import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes an executable file with a descriptor closed on `exec`: a program written with an
/// inheritable descriptor can be held open for writing by a process that another test starts
/// meanwhile, and then cannot be run ("text file busy").
public func writeProgram(_ text: String, to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        offset += written
    }
    fchmod(descriptor, 0o755)
}
