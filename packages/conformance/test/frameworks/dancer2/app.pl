# The service as a Dancer2 developer writes it from the spec, with Dancer2's defaults (Dancer2
# 0.400001, as Debian packages it), served by Starman (0.4016, Debian's package) with its defaults:
# routes under prefix '/v1', a before hook that checks the key (halt with a 401), the JSON
# serializer (so request_data is the body as Cpanel::JSON::XS reads it, and a hashref a route
# returns is the JSON answer), looks_like_number for integers (PetRules.pm), a typed petId
# placeholder (:petId[Int]), and an after_error hook that answers Dancer2's own errors (its 404,
# the 400 of a body the serializer cannot read, the 500 of a route that dies) with an Error.
#
# Starman forks 5 workers (its default), each with its own memory, so the pets live in a JSON
# file every worker reads and writes under flock: PETS_FILE, or a temporary file.
#
# Usage: API_KEY=... perl app.pl  (listens on 127.0.0.1 on a free port; prints "listening on
# PORT"; stops, Starman's master and workers with it, when its stdin closes, so that it never
# outlives the test that started it). The server is what `starman --preload-app` runs (plackup -s
# Starman without plackup's development middleware).
use Dancer2;
use Fcntl qw(:flock O_RDWR O_CREAT);
use File::Temp ();
use FindBin;
use IO::Select;
use IO::Socket::INET;
use Plack::Handler::Starman;
use POSIX ();

# The spec's rules the Perl apps share (frameworks/PetRules.pm).
use lib "$FindBin::Bin/..";
use PetRules qw(%STATUS @DEPRECATION new_pet_problem);

my $MASTER = $$;
my $PETS_FILE = $ENV{PETS_FILE} // (File::Temp::tempfile('pets-XXXXXX', TMPDIR => 1))[1];
END { unlink $PETS_FILE if $$ == $MASTER && !$ENV{PETS_FILE} }

set serializer => 'JSON';
set log => 'error';

# Reads the pets under a shared lock, or (with $change) changes them under an exclusive one.
sub pets {
  my ($change) = @_;
  sysopen my $fh, $PETS_FILE, O_RDWR | O_CREAT or die "cannot open $PETS_FILE: $!";
  flock $fh, $change ? LOCK_EX : LOCK_SH or die "cannot lock $PETS_FILE: $!";
  my $text = do { local $/; <$fh> };
  my $pets = length $text ? decode_json($text) : [];
  my $result = $change ? $change->($pets) : $pets;
  if ($change) {
    seek $fh, 0, 0;
    truncate $fh, 0;
    print {$fh} encode_json($pets);
  }
  close $fh;
  return $result;
}

sub fail {
  my ($status, $code, $message) = @_;
  status $status;
  return {code => $code, message => $message, status => $status};
}

hook after_error => sub {
  my ($response) = @_;
  my $status = $response->status;
  my $message = Dancer2::Core::HTTP->status_message($status) // 'Error';
  (my $code = lc $message) =~ s/\W+/_/g;
  $response->content({code => $code, message => $message, status => $status});
};

prefix '/v1';

hook before => sub {
  return if (request_header('Authorization') // '') eq "Bearer $ENV{API_KEY}";
  halt(fail(401, 'unauthorized', 'send Authorization: Bearer <key>'));
};

get '/pets' => sub {
  my $limit = query_parameters->get('limit') // 20;
  return fail(400, 'invalid_limit', 'limit is an integer from 1 to 100')
    unless $limit =~ /^\d+$/ && $limit >= 1 && $limit <= 100;
  my $status = query_parameters->get('status');
  return fail(400, 'invalid_status', 'status is one of available, pending, sold')
    if defined $status && !$STATUS{$status};
  my @listed = grep { !defined $status || ($_->{status} // '') eq $status } @{ pets() };
  splice @listed, $limit if @listed > $limit;
  return \@listed;
};

post '/pets' => sub {
  my $body = request_data;
  my $problem = new_pet_problem($body);
  return fail(400, 'validation_failed', $problem) if defined $problem;
  my $pet = pets(sub {
    my ($pets) = @_;
    my $pet = {id => @$pets + 1, name => $body->{name}, categoryId => $body->{categoryId}};
    $pet->{status} = $body->{status} if exists $body->{status};
    push @$pets, $pet;
    return $pet;
  });
  status 201;
  response_header Location => "/v1/pets/$pet->{id}";
  return $pet;
};

get '/pets/:petId[Int]' => sub {
  my %headers = @DEPRECATION;
  response_header $_ => $headers{$_} for keys %headers;
  my $pet_id = route_parameters->get('petId');
  my ($pet) = grep { $_->{id} == $pet_id } @{ pets() };
  return fail(404, 'not_found', "no pet $pet_id") unless $pet;
  return $pet;
};

# The app, its stdin watcher and Starman's master and workers are one process group: when stdin
# closes (or Starman's master is gone), the watcher ends the group.
setpgrp 0, 0;
defined(my $watcher = fork) or die "fork: $!";
if (!$watcher) {
  my $stdin = IO::Select->new(\*STDIN);
  while (getppid == $MASTER) {
    next unless $stdin->can_read(1);
    last unless sysread STDIN, my $buffer, 4096;
  }
  kill TERM => -$MASTER;
  POSIX::_exit(0);
}

# Starman takes no port 0 (Net::Server refuses a listen hashref whose port is false): it listens on
# one a probe found free.
my $port = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 1)->sockport;
$| = 1;
Plack::Handler::Starman->new(
  listen       => ["127.0.0.1:$port"],
  server_ready => sub { print "listening on $_[0]{port}\n" },
)->run(to_app);
