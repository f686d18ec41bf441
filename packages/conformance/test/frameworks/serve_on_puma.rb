# Serves a Rack app on Puma (Debian's Puma 5.6) for the Ruby apps (sinatra, rails, grape): listens
# on 127.0.0.1, port 0; prints "listening on PORT"; stops when its stdin closes, so that it never
# outlives the test that started it. It runs 16 threads: the kit keeps about a dozen connections
# open, and Puma holds a thread on a kept-alive connection for up to 0.2 s waiting for its next
# request (FAST_TRACK_KA_TIMEOUT), so with fewer threads than connections a request waits for one to
# come free.
require 'puma'
require 'puma/server'

def serve_on_puma(app)
  Thread.new do
    $stdin.read
    exit!(0)
  end
  server = Puma::Server.new(app, Puma::Events.new($stderr, $stderr), min_threads: 0, max_threads: 16)
  server.add_tcp_listener('127.0.0.1', 0)
  puts "listening on #{server.connected_ports.first}"
  $stdout.flush
  server.run.join
end
