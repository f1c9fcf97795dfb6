/* A reference for `make bench` (feedback.py): the least a two-step command can cost.
 *
 * Built static twice by feedback.py: as `hello`, which prints one line and exits; and, with
 * -DHAND_OVER, as `exec-hello`, which does what Hooray's front door does when it hands a command
 * line to the full program: exec another program (argv[1]) with the same words. Spawn → exit of
 * `exec-hello hello` is the floor of `hooray --version` and `hooray help`. Measures, asserts nothing. */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
#ifdef HAND_OVER
    if (argc > 1) {
        execv(argv[1], argv + 1);
        perror("exec-hello");
        return 127;
    }
#else
    (void)argc;
    (void)argv;
#endif
    fputs("hello\n", stdout);
    return 0;
}
