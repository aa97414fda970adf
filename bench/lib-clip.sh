# Shared by the benchmarks that play the test clips: sourced, not run.
# bench_clip OUT WxH [LEVEL]: makes OUT (unless it is there already): 10 s of testsrc2 (a picture
# that moves every frame) at 30 fps, H.264 high (LEVEL if given), yuv420p, GOP 60, with a
# 440 Hz beeping tone as stereo 48 kHz AAC, moov first. Written to OUT.tmp.mp4, then renamed.
bench_clip() {
    local out="$1" size="$2" level="${3:-}" dur=10
    [ -s "$out" ] && return 0
    command -v ffmpeg >/dev/null || { echo "bench: ffmpeg is missing (apt-get install ffmpeg)" >&2; return 1; }
    echo "bench: making $out" >&2
    ffmpeg -nostdin -loglevel error -y \
        -f lavfi -i "testsrc2=size=$size:rate=30:duration=$dur" \
        -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=$dur" \
        -filter_complex "[1:a]pan=stereo|c0=c0|c1=c0[a]" -map 0:v -map "[a]" \
        -c:v libx264 -profile:v high ${level:+-level "$level"} -pix_fmt yuv420p -preset veryfast -crf 23 -g 60 \
        -c:a aac -b:a 128k -ar 48000 -ac 2 -movflags +faststart "$out.tmp.mp4"
    mv "$out.tmp.mp4" "$out"
}
