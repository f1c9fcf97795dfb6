#!/bin/sh
# {{NAME}}: a Hooray plugin in POSIX sh. `hooray {{NAME}} hello` posts a notice with a button and
# answers a line. The protocol is in Hooray's docs/protocol.md; docs/plugins.md is the tutorial.
#
# Standard output carries protocol frames only: write anything else to standard error, which
# goes to hoorayd's log. Members are found with sed, which takes the first "id", "method" (and
# so on) in a message: enough for this plugin, not a JSON parser.

# Writes one frame: the JSON body given, after its Content-Length header.
send() {
    printf 'Content-Length: %d\r\n\r\n%s' "$(printf '%s' "$1" | wc -c)" "$1"
}

# Reads one frame into $body; returns 1 when hoorayd closed standard input.
receive() {
    length=
    while IFS= read -r line; do
        line=$(printf '%s' "$line" | tr -d '\r')
        [ -z "$line" ] && [ -n "$length" ] && break
        case $line in
            [Cc]ontent-[Ll]ength:*) length=$(printf '%s' "${line#*:}" | tr -dc '0-9') ;;
        esac
    done
    [ -n "$length" ] || return 1
    body=$(dd bs=1 count="$length" 2>/dev/null)
}

# The value of the first "NAME": in $body: a string with its quotes, or a number.
member() {
    printf '%s' "$body" | sed -n -e "s/\"$1\" *: */@@HERE@@/" \
        -e 's/.*@@HERE@@\("[^"]*"\).*/\1/p' -e 's/.*@@HERE@@\(-\{0,1\}[0-9][0-9]*\).*/\1/p'
}

answer() { send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":$1}"; }

# Sends a request of our own to hoorayd; its answer is read, and skipped, by the loop below.
calls=0
call() {
    calls=$((calls + 1))
    send "{\"jsonrpc\":\"2.0\",\"id\":\"{{NAME}}-$calls\",\"method\":\"$1\",\"params\":$2}"
}

while receive; do
    id=$(member id)
    method=$(member method)
    case $method in
        '"initialize"')
            answer '{"api_version":1,"name":"{{NAME}}","version":"0.1.0"}'
            ;;
        '"command"')
            if ! printf '%s' "$body" | grep -q '"values" *: *{'; then
                send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32602,\"message\":\"command: values must be an object\"}}"
            elif [ "$(member command)" = '"hello"' ]; then
                call postNotice '{"notice":{"title":"Hello","body":"This notice comes from the {{NAME}} plugin.","actions":[{"id":"wave","label":"Wave back"}]}}'
                answer '{"text":"Hello! A notice is on its way.","warnings":[],"exit_code":0}'
            else
                answer '{"text":"{{NAME}} has one command: hello.","warnings":[],"exit_code":1}'
            fi
            ;;
        '"actionInvoked"')
            [ "$(member action)" = '"wave"' ] && echo "someone waved back" >&2
            answer '{}'
            ;;
        '"shutdown"')
            answer '{}'
            exit 0
            ;;
        '"reminderDue"' | '"configChanged"' | '')
            # Notifications get no answer; '' is hoorayd's answer to one of our calls.
            ;;
        *)
            name=$(printf '%s' "$method" | tr -d '"\\')
            [ -n "$id" ] && send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32601,\"message\":\"no method $name\"}}"
            ;;
    esac
done
