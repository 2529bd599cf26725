# Sourced by verl.sh and verl-manager.sh: the Arena's side of a VeRL acceptance run. Needs cli, python,
# work and model set; writes $work/run-arena (`verl config --kind rloo --env releaseops-v3` on model) and
# $work/arena-eval.jsonl (`releaseops eval` of the scripted policy), starts `releaseops serve` and
# `releaseops mock-llm` on free loopback ports (env_port, mock_port, env_url) and waits until both answer.
# Both are stopped on exit, with whatever $on_exit names.
start_arena_services() {
  local ports
  ports=$("$python" -c 'import socket
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' | tr '\n' ' ')
  read -r env_port mock_port <<<"$ports"
  env_url="ws://127.0.0.1:$env_port/envs/releaseops-v3/ws"
  "${cli[@]}" verl config --preset smoke --kind rloo --env releaseops-v3 --model-path "$model" --out-dir "$work/run-arena" --env-url "$env_url" >/dev/null
  "${cli[@]}" eval --env releaseops-v3 --policy evidence-heuristic --dataset eval --no-ceiling --episodes-out "$work/arena-eval.jsonl" >/dev/null
  "${cli[@]}" serve --env releaseops-v3 --port "$env_port" >"$work/serve.log" 2>&1 &
  serve_pid=$!
  "${cli[@]}" mock-llm --env releaseops-v3 --policy evidence-heuristic --format qwen3 --dataset eval --port "$mock_port" >"$work/mock.log" 2>&1 &
  mock_pid=$!
  trap 'kill $serve_pid $mock_pid 2>/dev/null; ${on_exit:-true}' EXIT
  for _ in $(seq 180); do
    "$python" -c "import sys, urllib.request; [urllib.request.urlopen(u, timeout=2) for u in sys.argv[1:]]" \
      "http://127.0.0.1:$env_port/health" "http://127.0.0.1:$mock_port/health" 2>/dev/null && return 0
    sleep 1
  done
  echo "the env server or the scripted model did not answer (logs in $work)" >&2
  return 1
}
