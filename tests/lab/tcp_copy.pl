#!/usr/bin/perl
# tests/lab/tcp_copy.pl IP BYTES - a TCP copy of BYTES zero bytes to IP
# (a listener on IP, an ephemeral port, and a sender forked to it), for
# ib_doctor --watch's lab cases (tests/lab/cases/watch.sh): the same bytes
# an RDMA run moves, over TCP. Perl, as the guest has no socat or nc.
# Prints "tcp copy: N bytes to IP:PORT"; exit 0 when all N arrived.
use strict;
use warnings;
use IO::Socket::INET;

my ($ip, $n) = @ARGV;
die "usage: $0 IP BYTES\n" unless defined $n && $n =~ /^\d+$/;
my $l = IO::Socket::INET->new(LocalAddr => $ip, LocalPort => 0,
	Listen => 1, ReuseAddr => 1) or die "listen on $ip: $!\n";
my $port = $l->sockport;
my $pid = fork() // die "fork: $!\n";
if (!$pid) {
	my $s = IO::Socket::INET->new(PeerAddr => $ip, PeerPort => $port)
		or die "connect to $ip:$port: $!\n";
	my $buf = "\0" x 65536;
	for (my $left = $n; $left > 0;) {
		my $w = syswrite($s, $buf, $left < 65536 ? $left : 65536);
		defined $w or die "write: $!\n";
		$left -= $w;
	}
	exit 0;
}
my $c = $l->accept or die "accept: $!\n";
my ($got, $buf) = (0, '');
while (my $r = sysread($c, $buf, 65536)) {
	$got += $r;
}
waitpid($pid, 0);
print "tcp copy: $got bytes to $ip:$port\n";
exit($got == $n && $? == 0 ? 0 : 1);
