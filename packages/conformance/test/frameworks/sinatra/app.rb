# The service as a Ruby developer writes it from the spec with Sinatra's defaults (Sinatra 3.0,
# Rack 2.2 and Puma 5.6, as Debian packages them): a modular app, JSON.parse for bodies, to_i for
# integers in the query and the path, and a halt with an Error for every answer that is one.
#
# Usage: API_KEY=... ruby app.rb  (listens on 127.0.0.1, port 0; prints "listening on PORT";
# stops when its stdin closes, so that it never outlives the test that started it)
require 'json'
require 'sinatra/base'
require_relative '../serve_on_puma'

STATUSES = %w[available pending sold].freeze
DEPRECATED = {
  'Deprecation' => '@1767225600',
  'Sunset' => 'Thu, 05 Dec 2030 00:00:00 GMT',
  'Link' => '</v1/pets>; rel="successor-version"'
}.freeze

class PetApp < Sinatra::Base
  set :environment, :production
  set :pets, []
  set :storing, Mutex.new

  helpers do
    def fail!(status, code, message, headers = {})
      halt status, headers, JSON.generate(code: code, message: message, status: status)
    end

    def new_pet_problem(body)
      return 'the body is a NewPet object' unless body.is_a?(Hash)
      return 'name is a string' unless body['name'].is_a?(String)
      id = body['categoryId']
      return 'categoryId is an int64 integer' unless id.is_a?(Integer) && id.between?(-2**63, 2**63 - 1)
      return 'status is one of available, pending, sold' if body.key?('status') && !STATUSES.include?(body['status'])

      nil
    end
  end

  before do
    content_type :json
    fail!(401, 'unauthorized', 'send Authorization: Bearer <key>') unless
      request.env['HTTP_AUTHORIZATION'] == "Bearer #{ENV.fetch('API_KEY')}"
  end

  get '/v1/pets' do
    limit = (params['limit'] || 20).to_i
    fail!(400, 'invalid_limit', 'limit is an integer from 1 to 100') unless limit.between?(1, 100)
    status = params['status']
    fail!(400, 'invalid_status', 'status is one of available, pending, sold') if status && !STATUSES.include?(status)
    JSON.generate(settings.pets.select { |pet| status.nil? || pet['status'] == status }.first(limit))
  end

  post '/v1/pets' do
    begin
      body = JSON.parse(request.body.read)
    rescue JSON::ParserError => e
      fail!(400, 'malformed_json', e.message)
    end
    problem = new_pet_problem(body)
    fail!(400, 'validation_failed', problem) if problem
    pet = { 'name' => body['name'], 'categoryId' => body['categoryId'] }
    pet['status'] = body['status'] if body.key?('status')
    # Puma serves from several threads: one pet at a time gets the next id.
    pet = settings.storing.synchronize do
      { 'id' => settings.pets.size + 1 }.merge(pet).tap { |stored| settings.pets << stored }
    end
    headers 'Location' => "/v1/pets/#{pet['id']}"
    status 201
    JSON.generate(pet)
  end

  get '/v1/pets/:pet_id' do
    id = params['pet_id'].to_i
    pet = settings.pets.find { |p| p['id'] == id }
    fail!(404, 'not_found', "no pet #{id}", DEPRECATED) unless pet
    headers DEPRECATED
    JSON.generate(pet)
  end

  not_found do
    JSON.generate(code: 'not_found', message: 'no such resource', status: 404)
  end

  error do
    JSON.generate(code: 'internal_error', message: 'internal server error', status: 500)
  end
end

serve_on_puma(PetApp)
