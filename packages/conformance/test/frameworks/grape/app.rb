# The service as a Grape developer writes it from the spec, with Grape's own defaults (Grape 1.6,
# Rack 2.2 and Puma 5.6, as Debian packages them): `format :json` under `prefix :v1`, a `before`
# block for the key, `params` blocks with Grape's types, `values:` and `default:` for every input,
# `declared(params, include_missing: false)` for the pet, `rescue_from` for Grape's validation and
# other errors and for everything else, `error!` for an Error, and the README's catch-all route
# for every path no route matches.
#
# Usage: API_KEY=... ruby app.rb  (listens on 127.0.0.1, port 0; prints "listening on PORT";
# stops when its stdin closes, so that it never outlives the test that started it)
require 'grape'
require_relative '../serve_on_puma'

STATUSES = %w[available pending sold].freeze
INT64 = (-2**63..2**63 - 1).freeze
PETS = []
STORING = Mutex.new
DEPRECATED = {
  'Deprecation' => '@1767225600',
  'Sunset' => 'Thu, 05 Dec 2030 00:00:00 GMT',
  'Link' => '</v1/pets>; rel="successor-version"'
}.freeze

class PetAPI < Grape::API
  format :json
  prefix :v1

  helpers do
    # error! in an endpoint throws; in a rescue_from block it is the Error middleware's, which
    # answers the same Rack response.
    def fail!(status, code, message, headers = {})
      error!({ code: code, message: message, status: status }, status, headers)
    end
  end

  rescue_from Grape::Exceptions::ValidationErrors do |e|
    fail!(400, 'validation_failed', e.full_messages.join('; '))
  end

  # Grape's own errors (405, a body that is no JSON, …) keep their status and headers.
  rescue_from Grape::Exceptions::Base do |e|
    reason = Rack::Utils::HTTP_STATUS_CODES.fetch(e.status, 'Error')
    fail!(e.status, reason.downcase.tr(' ', '_'), e.message, e.headers || {})
  end

  rescue_from :all do
    fail!(500, 'internal_error', 'internal server error')
  end

  before do
    fail!(401, 'unauthorized', 'send Authorization: Bearer <key>') unless
      headers['Authorization'] == "Bearer #{ENV.fetch('API_KEY')}"
  end

  params do
    optional :limit, type: Integer, values: 1..100, default: 20
    optional :status, type: String, values: STATUSES
  end
  get :pets do
    PETS.select { |pet| params[:status].nil? || pet['status'] == params[:status] }.first(params[:limit])
  end

  params do
    requires :name, type: String
    requires :categoryId, type: Integer, values: INT64
    optional :status, type: String, values: STATUSES
  end
  post :pets do
    pet = declared(params, include_missing: false)
    # Puma serves from several threads: one pet at a time gets the next id.
    pet = STORING.synchronize { { 'id' => PETS.size + 1 }.merge(pet).tap { |stored| PETS << stored } }
    header 'Location', "/v1/pets/#{pet['id']}"
    pet
  end

  params do
    requires :petId, type: Integer
  end
  get 'pets/:petId' do
    DEPRECATED.each { |name, value| header name, value }
    pet = PETS.find { |p| p['id'] == params[:petId] }
    fail!(404, 'not_found', "no pet #{params[:petId]}") unless pet
    pet
  end

  route :any, '*path' do
    fail!(404, 'not_found', 'no such resource')
  end
end

serve_on_puma(PetAPI)
