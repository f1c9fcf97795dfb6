import Foundation

/// Who besides the owner may write a file or folder, as OpenSSH's `StrictModes` judges it: group
/// write is no one else's when the group is the user's own private group (the default of Debian,
/// Ubuntu and Fedora, where each user has a group of their own and the umask is 002).
public enum WriteAccess {
    /// Whether someone other than the owner may write a file of this mode and group.
    public static func othersMayWrite(mode: mode_t, group: gid_t) -> Bool {
        if mode & 0o002 != 0 { return true }
        guard mode & 0o020 != 0 else { return false }
        return !isUsersPrivateGroup(group)
    }

    /// Whether `group` is this user's primary group, named as the user, with no other member.
    static func isUsersPrivateGroup(_ group: gid_t) -> Bool {
        var user = passwd()
        var userResult: UnsafeMutablePointer<passwd>?
        var userBuffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &user, &userBuffer, userBuffer.count, &userResult) == 0, userResult != nil,
            user.pw_gid == group
        else { return false }
        let userName = String(cString: user.pw_name)
        var entry = group_struct()
        var groupResult: UnsafeMutablePointer<group_struct>?
        var groupBuffer = [CChar](repeating: 0, count: 16384)
        guard getgrgid_r(group, &entry, &groupBuffer, groupBuffer.count, &groupResult) == 0, groupResult != nil,
            String(cString: entry.gr_name) == userName
        else { return false }
        var member = entry.gr_mem
        while let name = member?.pointee {
            if String(cString: name) != userName { return false }
            member = member?.advanced(by: 1)
        }
        return true
    }
}

#if canImport(Glibc)
    import Glibc
    typealias group_struct = Glibc.group
#endif
