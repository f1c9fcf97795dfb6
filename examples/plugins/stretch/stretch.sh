#!/bin/sh
# Stretch: a daily 15:00 nudge to stretch, and `hooray stretch now`. An example Hooray plugin in
# POSIX sh (it runs under dash).
#
# It reads the JSON-RPC frames hoorayd writes (docs/protocol.md, "The plugin protocol") with
# `read` and `dd`, and finds a message's id, method and button with sed. That is enough for an
# example, not a JSON parser: it takes the first "id" and "method" in a message, so a payload
# holding those words before them would fool it. A real plugin in sh would use jq.
# Standard output carries frames only; anything to say goes to standard error (hoorayd's log).

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
    send "{\"jsonrpc\":\"2.0\",\"id\":\"stretch-$calls\",\"method\":\"$1\",\"params\":$2}"
}

notice='{"title":"Time to stretch","body":"Roll your shoulders, reach up high, breathe out slowly.","actions":[{"id":"done","label":"Done"}]}'

while receive; do
    id=$(member id)
    method=$(member method)
    case $method in
        '"initialize"')
            answer '{"api_version":1,"name":"stretch","version":"1.0.0"}'
            call scheduleReminder "{\"id\":\"daily\",\"schedule\":{\"daily\":\"15:00\"},\"notice\":$notice}"
            ;;
        '"command"')
            if ! printf '%s' "$body" | grep -q '"values" *: *{'; then
                send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32602,\"message\":\"command: values must be an object\"}}"
            elif [ "$(member command)" = '"now"' ]; then
                call postNotice "{\"notice\":$notice}"
                answer '{"text":"A stretch notice is on its way. Go gently.","warnings":[],"exit_code":0}'
            else
                answer '{"text":"stretch has one command: now.","warnings":[],"exit_code":1}'
            fi
            ;;
        '"actionInvoked"')
            [ "$(member action)" = '"done"' ] && echo "stretched, nicely done" >&2
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
