#!/bin/bash
# Wrote hooray-export-v1.json with the binaries of commit d4be1c8 (export version 1): BIN=.build/debug OUT=FILE bash make-v1.sh
set -e
BIN=${BIN:?}
H=$(mktemp -d)
mkdir -p $H/config/hooray $H/data $H/runtime $H/etc/conf.d $H/system-plugins
chmod 700 $H/runtime
export HOME=$H XDG_CONFIG_HOME=$H/config XDG_DATA_HOME=$H/data XDG_RUNTIME_DIR=$H/runtime HOORAY_SYSCONFDIR=$H/etc \
  HOORAY_SYSTEM_PLUGIN_DIR=$H/system-plugins TZ=UTC LANG=C.UTF-8
unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY
cat > $H/config/hooray/hooray.toml <<'T'
[plugins.water]
enabled = true
T
LIB=/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1
h() { local t="$1"; shift; LD_PRELOAD=$LIB FAKETIME="@$t" FAKETIME_DONT_FAKE_MONOTONIC=1 FAKETIME_NO_CACHE=1 $BIN/hooray "$@" >/dev/null; }
h "2026-11-15 08:00:00" habit add "Water the ferns" --start 2026-11-15 --remind 20:00 --why "They were a gift"
h "2026-11-15 08:00:30" habit add "Stretch" --on mon,wed,fri --start 2026-11-16
h "2026-11-15 08:01:00" habit add "Call a friend" --every 3d --start 2026-11-15
for d in 2026-11-15 2026-11-16 2026-11-17; do h "$d 20:05:00" habit done "Water the ferns"; done
h "2026-11-18 09:00:00" habit pause "Water the ferns" --for 2d
h "2026-11-22 09:00:00" habit reset "Water the ferns" --note "Forgot while travelling"
h "2026-11-22 20:00:00" habit done "Water the ferns"
h "2026-11-23 20:00:00" habit done "Water the ferns"
h "2026-11-16 07:00:00" habit done "Stretch"
h "2026-11-20 10:00:00.25" win "Answered one message" --mood proud --note "First of many"
h "2026-11-21 18:40:00" win "Sent the scary email" --ago 2h
ID=$($BIN/hooray moments --json | python3 -c "import json,sys; print([m['id'] for m in json.load(sys.stdin) if m['text']=='Answered one message'][0][:8])")
h "2026-11-21 18:41:00" moments fav $ID
h "2026-11-22 10:00:00" reject --type job --impact 8 --note "No reply after the final round"
h "2026-11-22 12:00:00" reject --type dating --impact 3
h "2026-11-22 18:00:00" recovery okay
h "2026-11-22 20:01:12" recovery checkin good --note "Better than I feared"
h "2026-11-23 09:30:00" challenge done
h "2026-11-22 21:00:00" swap prep "Oatmeal instead of a pastry" "Walk after lunch"
h "2026-11-23 13:00:00" swap "Sparkling water instead of soda"
h "2026-11-23 14:00:00" remind "Call mom" --at 18:00 --days mon,thu
h "2026-11-23 14:01:00" remind "Pay rent" --on 2026-12-01 --at 09:00
h "2026-11-23 15:00:00" water drink --glasses 2
LD_PRELOAD=$LIB FAKETIME="@2026-11-24 08:00:00" FAKETIME_DONT_FAKE_MONOTONIC=1 FAKETIME_NO_CACHE=1 $BIN/hooray export -o $H/v1.json
cp $H/v1.json ${OUT:?}
rm -rf $H
