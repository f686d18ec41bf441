# The service as a Mojolicious developer writes it from the spec, with Mojolicious' defaults
# (Mojolicious 9.31, as Debian packages it): a Lite app, an under() that checks the key,
# $c->req->json for bodies, looks_like_number for integers (PetRules.pm), a petId placeholder
# restricted to \d+, render(json => ...) for answers, and a before_render hook that answers the
# framework's own 404 and 500 pages with an Error.
#
# Usage: API_KEY=... perl app.pl  (listens on 127.0.0.1, port 0; prints "listening on PORT";
# stops when its stdin closes, so that it never outlives the test that started it)
use Mojolicious::Lite -signatures;
use FindBin;
use Mojo::IOLoop::Stream;
use Mojo::Server::Daemon;

# The spec's rules the Perl apps share (frameworks/PetRules.pm).
use lib "$FindBin::Bin/..";
use PetRules qw(%STATUS @DEPRECATION new_pet_problem);

my @pets;

app->mode('production');
app->log->level('fatal');

sub fail ($c, $status, $code, $message) {
  $c->render(status => $status, json => {code => $code, message => $message, status => $status});
}

hook before_render => sub ($c, $args) {
  my $template = $args->{template} // '';
  return unless $template eq 'not_found' || $template eq 'exception';
  my $status = $template eq 'not_found' ? 404 : 500;
  $args->{json} = {code => $template, message => $template =~ tr/_/ /r, status => $status};
  $args->{status} = $status;
};

my $v1 = under '/v1' => sub ($c) {
  return 1 if ($c->req->headers->authorization // '') eq "Bearer $ENV{API_KEY}";
  fail($c, 401, 'unauthorized', 'send Authorization: Bearer <key>');
  return undef;
};

$v1->get('/pets' => sub ($c) {
  my $limit = $c->param('limit') // 20;
  return fail($c, 400, 'invalid_limit', 'limit is an integer from 1 to 100')
    unless $limit =~ /^\d+$/ && $limit >= 1 && $limit <= 100;
  my $status = $c->param('status');
  return fail($c, 400, 'invalid_status', 'status is one of available, pending, sold')
    if defined $status && !$STATUS{$status};
  my @listed = grep { !defined $status || ($_->{status} // '') eq $status } @pets;
  splice @listed, $limit if @listed > $limit;
  $c->render(json => \@listed);
});

$v1->post('/pets' => sub ($c) {
  my $body = $c->req->json;
  return fail($c, 400, 'malformed_json', 'the body is no JSON') unless defined $body;
  my $problem = new_pet_problem($body);
  return fail($c, 400, 'validation_failed', $problem) if defined $problem;
  my $pet = {id => @pets + 1, name => $body->{name}, categoryId => $body->{categoryId}};
  $pet->{status} = $body->{status} if exists $body->{status};
  push @pets, $pet;
  $c->res->headers->location("/v1/pets/$pet->{id}");
  $c->render(status => 201, json => $pet);
});

$v1->get('/pets/:petId' => [petId => qr/\d+/] => sub ($c) {
  my %headers = @DEPRECATION;
  $c->res->headers->header($_ => $headers{$_}) for keys %headers;
  my $pet_id = $c->param('petId');
  my ($pet) = grep { $_->{id} == $pet_id } @pets;
  return fail($c, 404, 'not_found', "no pet $pet_id") unless $pet;
  $c->render(json => $pet);
});

my $daemon = Mojo::Server::Daemon->new(app => app, listen => ['http://127.0.0.1:0'], silent => 1);
$daemon->start;
my $port = Mojo::IOLoop->acceptor($daemon->acceptors->[0])->port;
$| = 1;
print "listening on $port\n";
my $stdin = Mojo::IOLoop::Stream->new(\*STDIN);
# A stream closes after 15 s without a byte by default: stdin carries none until it closes.
$stdin->timeout(0);
$stdin->on(close => sub { exit 0 });
Mojo::IOLoop->stream($stdin);
Mojo::IOLoop->start;
