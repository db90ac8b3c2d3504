/**
 * The names of the modules each interpreter's own library holds: Python's `sys.stdlib_module_names` (3.11, with
 * the private and newer ones of 3.12–3.13) and the modules perl 5.36 ships (Module::CoreList). A file by one of these
 * names in a folder searched before the library (beside a Python script, the working directory under `python -m`,
 * PYTHONPATH, PERL5LIB, `-I`) is loaded in place of the library's own module by whatever library code imports it.
 */

const words = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/))

export const PYTHON_LIBRARY_MODULES: ReadonlySet<string> = words(`
  __future__ _abc _aix_support _android_support _apple_support _ast _asyncio _bisect _blake2 _bootsubprocess _bz2
  _codecs _codecs_cn _codecs_hk _codecs_iso2022 _codecs_jp _codecs_kr _codecs_tw _collections _collections_abc
  _colorize _compat_pickle _compression _contextvars _crypt _csv _ctypes _curses _curses_panel _datetime _dbm _decimal
  _elementtree _frozen_importlib _frozen_importlib_external _functools _gdbm _hashlib _heapq _imp _interpchannels
  _interpqueues _interpreters _io _ios_support _json _locale _lsprof _lzma _markupbase _md5 _msi _multibytecodec
  _multiprocessing _opcode _opcode_metadata _operator _osx_support _overlapped _pickle _posixshmem _posixsubprocess
  _py_abc _pydatetime _pydecimal _pyio _pylong _pyrepl _queue _random _scproxy _sha1 _sha256 _sha3 _sha512 _signal
  _sitebuiltins _socket _sqlite3 _sre _ssl _stat _statistics _string _strptime _struct _suggestions _symtable
  _sysconfig _thread _threading_local _tkinter _tokenize _tracemalloc _typing _uuid _warnings _weakref _weakrefset
  _winapi _zoneinfo abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb
  binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys
  compileall concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes curses dataclasses datetime
  dbm decimal difflib dis distutils doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput
  fnmatch fractions ftplib functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac
  html http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3 linecache locale
  logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt multiprocessing netrc nis
  nntplib nt ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib pdb pickle pickletools pipes
  pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data
  pyexpat queue quopri random re readline reprlib resource rlcompleter runpy sched secrets select selectors shelve
  shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd sqlite3 sre_compile sre_constants sre_parse
  ssl stat statistics string stringprep struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile
  telnetlib tempfile termios textwrap this threading time timeit tkinter token tokenize tomllib trace traceback
  tracemalloc tty turtle turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref
  webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo
`)

export const PERL_LIBRARY_MODULES: ReadonlySet<string> = words(`
  Amiga::ARexx Amiga::Exec AnyDBM_File App::Cpan App::Prove App::Prove::State App::Prove::State::Result
  App::Prove::State::Result::Test Archive::Tar Archive::Tar::Constant Archive::Tar::File Attribute::Handlers
  AutoLoader AutoSplit B B::Concise B::Deparse B::Op_private B::Showlex B::Terse B::Xref Benchmark CPAN CPAN::Author
  CPAN::Bundle CPAN::CacheMgr CPAN::Complete CPAN::Debug CPAN::DeferredCode CPAN::Distribution CPAN::Distroprefs
  CPAN::Distrostatus CPAN::Exception::RecursiveDependency CPAN::Exception::blocked_urllist
  CPAN::Exception::yaml_not_installed CPAN::Exception::yaml_process_error CPAN::FTP CPAN::FTP::netrc CPAN::FirstTime
  CPAN::HTTP::Client CPAN::HTTP::Credentials CPAN::HandleConfig CPAN::Index CPAN::InfoObj CPAN::Kwalify
  CPAN::LWP::UserAgent CPAN::Meta CPAN::Meta::Converter CPAN::Meta::Feature CPAN::Meta::History CPAN::Meta::Merge
  CPAN::Meta::Prereqs CPAN::Meta::Requirements CPAN::Meta::Spec CPAN::Meta::Validator CPAN::Meta::YAML CPAN::Mirrors
  CPAN::Module CPAN::Nox CPAN::Plugin CPAN::Plugin::Specfile CPAN::Prompt CPAN::Queue CPAN::Shell CPAN::Tarzip
  CPAN::URL CPAN::Version Carp Carp::Heavy Class::Struct Compress::Raw::Bzip2 Compress::Raw::Zlib Compress::Zlib
  Config Config::Extensions Config::Perl::V Cwd DB DBM_Filter DBM_Filter::compress DBM_Filter::encode
  DBM_Filter::int32 DBM_Filter::null DBM_Filter::utf8 DB_File Data::Dumper Devel::PPPort Devel::Peek
  Devel::SelfStubber Digest Digest::MD5 Digest::SHA Digest::base Digest::file DirHandle Dumpvalue DynaLoader Encode
  Encode::Alias Encode::Byte Encode::CJKConstants Encode::CN Encode::CN::HZ Encode::Config Encode::EBCDIC
  Encode::Encoder Encode::Encoding Encode::GSM0338 Encode::Guess Encode::JP Encode::JP::H2Z Encode::JP::JIS7
  Encode::KR Encode::KR::2022_KR Encode::MIME::Header Encode::MIME::Header::ISO_2022_JP Encode::MIME::Name
  Encode::Symbol Encode::TW Encode::Unicode Encode::Unicode::UTF7 English Env Errno Exporter Exporter::Heavy
  ExtUtils::CBuilder ExtUtils::CBuilder::Base ExtUtils::CBuilder::Platform::Unix ExtUtils::CBuilder::Platform::VMS
  ExtUtils::CBuilder::Platform::Windows ExtUtils::CBuilder::Platform::Windows::BCC
  ExtUtils::CBuilder::Platform::Windows::GCC ExtUtils::CBuilder::Platform::Windows::MSVC
  ExtUtils::CBuilder::Platform::aix ExtUtils::CBuilder::Platform::android ExtUtils::CBuilder::Platform::cygwin
  ExtUtils::CBuilder::Platform::darwin ExtUtils::CBuilder::Platform::dec_osf ExtUtils::CBuilder::Platform::os2
  ExtUtils::Command ExtUtils::Command::MM ExtUtils::Constant ExtUtils::Constant::Base ExtUtils::Constant::ProxySubs
  ExtUtils::Constant::Utils ExtUtils::Constant::XS ExtUtils::Embed ExtUtils::Install ExtUtils::Installed
  ExtUtils::Liblist ExtUtils::Liblist::Kid ExtUtils::MM ExtUtils::MM_AIX ExtUtils::MM_Any ExtUtils::MM_BeOS
  ExtUtils::MM_Cygwin ExtUtils::MM_DOS ExtUtils::MM_Darwin ExtUtils::MM_MacOS ExtUtils::MM_NW5 ExtUtils::MM_OS2
  ExtUtils::MM_OS390 ExtUtils::MM_QNX ExtUtils::MM_UWIN ExtUtils::MM_Unix ExtUtils::MM_VMS ExtUtils::MM_VOS
  ExtUtils::MM_Win32 ExtUtils::MM_Win95 ExtUtils::MY ExtUtils::MakeMaker ExtUtils::MakeMaker::Config
  ExtUtils::MakeMaker::Locale ExtUtils::MakeMaker::version ExtUtils::MakeMaker::version::regex ExtUtils::Manifest
  ExtUtils::Miniperl ExtUtils::Mkbootstrap ExtUtils::Mksymlists ExtUtils::PL2Bat ExtUtils::Packlist ExtUtils::ParseXS
  ExtUtils::ParseXS::Constants ExtUtils::ParseXS::CountLines ExtUtils::ParseXS::Eval ExtUtils::ParseXS::Utilities
  ExtUtils::Typemaps ExtUtils::Typemaps::Cmd ExtUtils::Typemaps::InputMap ExtUtils::Typemaps::OutputMap
  ExtUtils::Typemaps::Type ExtUtils::XSSymSet ExtUtils::testlib Fatal Fcntl File::Basename File::Compare File::Copy
  File::DosGlob File::Fetch File::Find File::Glob File::GlobMapper File::Path File::Spec File::Spec::AmigaOS
  File::Spec::Cygwin File::Spec::Epoc File::Spec::Functions File::Spec::Mac File::Spec::OS2 File::Spec::Unix
  File::Spec::VMS File::Spec::Win32 File::Temp File::stat FileCache FileHandle Filter::Simple Filter::Util::Call
  FindBin GDBM_File Getopt::Long Getopt::Std HTTP::Tiny Hash::Util Hash::Util::FieldHash I18N::Collate I18N::LangTags
  I18N::LangTags::Detect I18N::LangTags::List I18N::Langinfo IO IO::Compress::Adapter::Bzip2
  IO::Compress::Adapter::Deflate IO::Compress::Adapter::Identity IO::Compress::Base IO::Compress::Base::Common
  IO::Compress::Bzip2 IO::Compress::Deflate IO::Compress::Gzip IO::Compress::Gzip::Constants IO::Compress::RawDeflate
  IO::Compress::Zip IO::Compress::Zip::Constants IO::Compress::Zlib::Constants IO::Compress::Zlib::Extra IO::Dir
  IO::File IO::Handle IO::Pipe IO::Poll IO::Seekable IO::Select IO::Socket IO::Socket::INET IO::Socket::IP
  IO::Socket::UNIX IO::Uncompress::Adapter::Bunzip2 IO::Uncompress::Adapter::Identity IO::Uncompress::Adapter::Inflate
  IO::Uncompress::AnyInflate IO::Uncompress::AnyUncompress IO::Uncompress::Base IO::Uncompress::Bunzip2
  IO::Uncompress::Gunzip IO::Uncompress::Inflate IO::Uncompress::RawInflate IO::Uncompress::Unzip IO::Zlib IPC::Cmd
  IPC::Msg IPC::Open2 IPC::Open3 IPC::Semaphore IPC::SharedMem IPC::SysV JSON::PP JSON::PP::Boolean List::Util
  List::Util::XS Locale::Maketext Locale::Maketext::Guts Locale::Maketext::GutsLoader Locale::Maketext::Simple
  MIME::Base64 MIME::QuotedPrint Math::BigFloat Math::BigFloat::Trace Math::BigInt Math::BigInt::Calc
  Math::BigInt::FastCalc Math::BigInt::Lib Math::BigInt::Trace Math::BigRat Math::BigRat::Trace Math::Complex
  Math::Trig Memoize Memoize::AnyDBM_File Memoize::Expire Memoize::ExpireFile Memoize::ExpireTest Memoize::NDBM_File
  Memoize::SDBM_File Memoize::Storable Module::CoreList Module::CoreList::Utils Module::Load Module::Load::Conditional
  Module::Loaded Module::Metadata NDBM_File NEXT Net::Cmd Net::Config Net::Domain Net::FTP Net::FTP::A Net::FTP::E
  Net::FTP::I Net::FTP::L Net::FTP::dataconn Net::NNTP Net::Netrc Net::POP3 Net::Ping Net::SMTP Net::Time Net::hostent
  Net::netent Net::protoent Net::servent O ODBM_File Opcode POSIX Params::Check Parse::CPAN::Meta Perl::OSType PerlIO
  PerlIO::encoding PerlIO::mmap PerlIO::scalar PerlIO::via PerlIO::via::QuotedPrint Pod::Checker Pod::Escapes
  Pod::Functions Pod::Functions::Functions Pod::Html Pod::Html::Util Pod::Man Pod::ParseLink Pod::Perldoc
  Pod::Perldoc::BaseTo Pod::Perldoc::GetOptsOO Pod::Perldoc::ToANSI Pod::Perldoc::ToChecker Pod::Perldoc::ToMan
  Pod::Perldoc::ToNroff Pod::Perldoc::ToPod Pod::Perldoc::ToRtf Pod::Perldoc::ToTerm Pod::Perldoc::ToText
  Pod::Perldoc::ToTk Pod::Perldoc::ToXml Pod::Simple Pod::Simple::BlackBox Pod::Simple::Checker Pod::Simple::Debug
  Pod::Simple::DumpAsText Pod::Simple::DumpAsXML Pod::Simple::HTML Pod::Simple::HTMLBatch Pod::Simple::HTMLLegacy
  Pod::Simple::JustPod Pod::Simple::LinkSection Pod::Simple::Methody Pod::Simple::Progress Pod::Simple::PullParser
  Pod::Simple::PullParserEndToken Pod::Simple::PullParserStartToken Pod::Simple::PullParserTextToken
  Pod::Simple::PullParserToken Pod::Simple::RTF Pod::Simple::Search Pod::Simple::SimpleTree Pod::Simple::Text
  Pod::Simple::TextContent Pod::Simple::TiedOutFH Pod::Simple::Transcode Pod::Simple::TranscodeDumb
  Pod::Simple::TranscodeSmart Pod::Simple::XHTML Pod::Simple::XMLOutStream Pod::Text Pod::Text::Color
  Pod::Text::Overstrike Pod::Text::Termcap Pod::Usage SDBM_File Safe Scalar::Util Search::Dict SelectSaver SelfLoader
  Socket Storable Sub::Util Symbol Sys::Hostname Sys::Syslog Sys::Syslog::Win32 TAP::Base TAP::Formatter::Base
  TAP::Formatter::Color TAP::Formatter::Console TAP::Formatter::Console::ParallelSession
  TAP::Formatter::Console::Session TAP::Formatter::File TAP::Formatter::File::Session TAP::Formatter::Session
  TAP::Harness TAP::Harness::Env TAP::Object TAP::Parser TAP::Parser::Aggregator TAP::Parser::Grammar
  TAP::Parser::Iterator TAP::Parser::Iterator::Array TAP::Parser::Iterator::Process TAP::Parser::Iterator::Stream
  TAP::Parser::IteratorFactory TAP::Parser::Multiplexer TAP::Parser::Result TAP::Parser::Result::Bailout
  TAP::Parser::Result::Comment TAP::Parser::Result::Plan TAP::Parser::Result::Pragma TAP::Parser::Result::Test
  TAP::Parser::Result::Unknown TAP::Parser::Result::Version TAP::Parser::Result::YAML TAP::Parser::ResultFactory
  TAP::Parser::Scheduler TAP::Parser::Scheduler::Job TAP::Parser::Scheduler::Spinner TAP::Parser::Source
  TAP::Parser::SourceHandler TAP::Parser::SourceHandler::Executable TAP::Parser::SourceHandler::File
  TAP::Parser::SourceHandler::Handle TAP::Parser::SourceHandler::Perl TAP::Parser::SourceHandler::RawTAP
  TAP::Parser::YAMLish::Reader TAP::Parser::YAMLish::Writer Term::ANSIColor Term::Cap Term::Complete Term::ReadLine
  Test Test2 Test2::API Test2::API::Breakage Test2::API::Context Test2::API::Instance Test2::API::InterceptResult
  Test2::API::InterceptResult::Event Test2::API::InterceptResult::Facet Test2::API::InterceptResult::Hub
  Test2::API::InterceptResult::Squasher Test2::API::Stack Test2::Event Test2::Event::Bail Test2::Event::Diag
  Test2::Event::Encoding Test2::Event::Exception Test2::Event::Fail Test2::Event::Generic Test2::Event::Note
  Test2::Event::Ok Test2::Event::Pass Test2::Event::Plan Test2::Event::Skip Test2::Event::Subtest
  Test2::Event::TAP::Version Test2::Event::V2 Test2::Event::Waiting Test2::EventFacet Test2::EventFacet::About
  Test2::EventFacet::Amnesty Test2::EventFacet::Assert Test2::EventFacet::Control Test2::EventFacet::Error
  Test2::EventFacet::Hub Test2::EventFacet::Info Test2::EventFacet::Info::Table Test2::EventFacet::Meta
  Test2::EventFacet::Parent Test2::EventFacet::Plan Test2::EventFacet::Render Test2::EventFacet::Trace
  Test2::Formatter Test2::Formatter::TAP Test2::Hub Test2::Hub::Interceptor Test2::Hub::Interceptor::Terminator
  Test2::Hub::Subtest Test2::IPC Test2::IPC::Driver Test2::IPC::Driver::Files Test2::Tools::Tiny Test2::Util
  Test2::Util::ExternalMeta Test2::Util::Facets2Legacy Test2::Util::HashBase Test2::Util::Trace Test::Builder
  Test::Builder::Formatter Test::Builder::IO::Scalar Test::Builder::Module Test::Builder::Tester
  Test::Builder::Tester::Color Test::Builder::TodoDiag Test::Harness Test::More Test::Simple Test::Tester
  Test::Tester::Capture Test::Tester::CaptureRunner Test::Tester::Delegate Test::use::ok Text::Abbrev Text::Balanced
  Text::ParseWords Text::Tabs Text::Wrap Thread Thread::Queue Thread::Semaphore Tie::Array Tie::File Tie::Handle
  Tie::Hash Tie::Hash::NamedCapture Tie::Memoize Tie::RefHash Tie::Scalar Tie::StdHandle Tie::SubstrHash Time::HiRes
  Time::Local Time::Piece Time::Seconds Time::gmtime Time::localtime Time::tm UNIVERSAL Unicode Unicode::Collate
  Unicode::Collate::CJK::Big5 Unicode::Collate::CJK::GB2312 Unicode::Collate::CJK::JISX0208
  Unicode::Collate::CJK::Korean Unicode::Collate::CJK::Pinyin Unicode::Collate::CJK::Stroke
  Unicode::Collate::CJK::Zhuyin Unicode::Collate::Locale Unicode::Normalize Unicode::UCD User::grent User::pwent
  XS::APItest XS::Typemap XSLoader _charnames attributes autodie autodie::Scope::Guard autodie::Scope::GuardStack
  autodie::Util autodie::exception autodie::exception::system autodie::hints autodie::skip autouse base bigfloat
  bigint bignum bigrat blib builtin bytes charnames constant deprecate diagnostics encoding encoding::warnings
  experimental feature fields filetest if integer less lib locale meta_notation mro ok open ops overload
  overload::numbers overloading parent perlfaq re sigtrap sort strict subs threads threads::shared unicore::Name utf8
  vars version version::regex vmsish warnings warnings::register
`)
