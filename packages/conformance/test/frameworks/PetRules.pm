# The spec's rules the Perl apps share (mojolicious/app.pl, dancer2/app.pl), written as a Perl
# developer writes them: looks_like_number for integers, !ref for strings.
package PetRules;
use strict;
use warnings;
use Exporter 'import';
use Scalar::Util qw(looks_like_number);

our @EXPORT_OK = qw(%STATUS @DEPRECATION is_int64 new_pet_problem);

our %STATUS = map { $_ => 1 } qw(available pending sold);

# The headers of every getPet answer (the spec's deprecation of the operation).
our @DEPRECATION = (
  Deprecation => '@1767225600',
  Sunset => 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link => '</v1/pets>; rel="successor-version"',
);

sub is_int64 {
  my ($value) = @_;
  return defined $value && !ref $value && looks_like_number($value) && int($value) == $value
    && $value >= -2**63 && $value < 2**63;
}

# Why `$body` is no NewPet, or undef.
sub new_pet_problem {
  my ($body) = @_;
  return 'the body is a NewPet object' unless ref $body eq 'HASH';
  return 'name is a string' unless defined $body->{name} && !ref $body->{name};
  return 'categoryId is an int64 integer' unless is_int64($body->{categoryId});
  return 'status is one of available, pending, sold'
    if exists $body->{status} && !(defined $body->{status} && $STATUS{$body->{status}});
  return undef;
}

1;
